import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadInitialLanguage } from './lib/i18n';
import './styles/global.css';

// After a new deployment an open console may ask for page chunks that no longer exist. Reload once
// to get the new build; the flag stops a loop when the chunk is missing for another reason.
const RELOADED_FLAG = 'campus-ops-chunk-reload';
window.addEventListener('vite:preloadError', (event) => {
  if (sessionStorage.getItem(RELOADED_FLAG)) return;
  event.preventDefault();
  sessionStorage.setItem(RELOADED_FLAG, '1');
  window.location.reload();
});
window.addEventListener('load', () => setTimeout(() => sessionStorage.removeItem(RELOADED_FLAG), 10_000));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The stored language's texts arrive before the first render, so no untranslated key is ever drawn.
void loadInitialLanguage().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
