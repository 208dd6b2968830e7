import { createRoot } from 'react-dom/client';
import { loadSettings } from './api.js';
import { App } from './App.jsx';
import './styles.css';

const root = createRoot(document.getElementById('root'));
loadSettings().then(
  () => root.render(<App />),
  (error) => root.render(<p role="alert">Could not start: {error.message}</p>),
);
