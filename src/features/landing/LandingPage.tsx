export default function LandingPage() {
  return (
    <main id="top">
      <h1>Rinnova</h1>
    </main>
  );
}
