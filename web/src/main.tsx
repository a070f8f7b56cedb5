import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { currentLang, initI18n } from './i18n';
import { useAppStore } from './app/store';
import './styles.css';
import { router } from './app/router';
import { installScriptErrorLogging } from './app/scriptErrors';

installScriptErrorLogging();

void initI18n().then(() => {
  useAppStore.getState().setLang(currentLang());
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});
