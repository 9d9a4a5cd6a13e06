/** /payment until the payment screen is built (a later issue): says so, honestly. */
export default function PaymentPlaceholderPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section aria-labelledby="payment-title" className="card w-full max-w-md overflow-hidden text-center">
        <div className="h-1 bg-linear-to-r from-brand-sky via-brand-blue to-brand-indigo" />
        <div className="px-6 py-10">
          <img src="/logo.svg" alt="" className="mx-auto h-12 w-12" />
          <h1 id="payment-title" className="page-title mt-5">
            Pagamento
          </h1>
          <p className="mt-2 text-sm text-slate-600">
            La pagina di pagamento è in arrivo: non è ancora possibile completare un pagamento da qui.
          </p>
        </div>
      </section>
    </main>
  );
}
