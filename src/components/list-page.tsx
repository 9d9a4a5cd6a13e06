import type { ResourceDef } from '../lib/resource';
import { messages } from '../../contract/messages';

// Placeholder while the generic list is built; the props are final.
export function ListPage({ resource }: { resource: ResourceDef }) {
  return <h1 className="page-title">{messages.common.listTitle(resource.label)}</h1>;
}
