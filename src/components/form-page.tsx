import type { ResourceDef } from '../lib/resource';
import { messages } from '../../contract/messages';

// Placeholder while the generic form is built; the props are final.
export function FormPage({ resource }: { resource: ResourceDef }) {
  return <h1 className="page-title">{messages.common.createNew(resource.label)}</h1>;
}
