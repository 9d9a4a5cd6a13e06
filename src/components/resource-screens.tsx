import type { ComponentType, FunctionComponent } from 'react';
import type { ResourceDef, ScreenProps } from '../lib/resource';
import { FormPage } from './form-page';
import { ListPage } from './list-page';

/** The list and form screens of a resource. */
export interface ResourceScreens {
  ListScreen: ComponentType<ScreenProps>;
  FormScreen: ComponentType<ScreenProps>;
}

/**
 * The generic screens of a declaration: its list at `/{name}` and its form at `/{name}/new` and
 * `/{name}/:id` ('new' or any non-numeric id = create mode). The registry uses them for every
 * entity that binds no screens of its own.
 */
export function resourceScreens(resource: ResourceDef): {
  ListScreen: FunctionComponent<Partial<ScreenProps>>;
  FormScreen: FunctionComponent<Partial<ScreenProps>>;
} {
  return {
    ListScreen: () => <ListPage resource={resource} />,
    FormScreen: () => <FormPage resource={resource} />,
  };
}
