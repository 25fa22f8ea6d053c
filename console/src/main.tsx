import React from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './a11y.css';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <React.StrictMode>
    <App />
  </React.StrictMode>,
);
