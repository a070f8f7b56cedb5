import './darkTheme';
import { useEffect, type ComponentType } from 'react';
import NoPermissionPage from '../features/common/NoPermissionPage';
import { isPagePermitted, type PageDef } from './pages';
import { usePermittedMenu } from './shell/useMenu';

/**
 * The page, or the no-permission page when the user's role does not include it (the page never mounts).
 * Its own module, loaded with the page, so that the menu filter and antd's Result stay out of the
 * login route's bundle.
 */
export function guarded(p: PageDef, Page: ComponentType): ComponentType {
  function GuardedPage() {
    const { modules } = usePermittedMenu();
    // <html data-page>: the page shown has mounted (its code loaded and rendered), for the end-to-end tests
    useEffect(() => {
      document.documentElement.dataset.page = p.name;
    }, []);
    return isPagePermitted(p, modules) ? <Page /> : <NoPermissionPage name={p.name} allScreen={p.allScreen} />;
  }
  GuardedPage.displayName = `Guarded(${p.name})`;
  return GuardedPage;
}
