import { render } from 'preact';
import { App } from './app.tsx';
import { Boundary } from './components.tsx';
import './styles.css';

const root = document.getElementById('app');
if (root)
  render(
    <Boundary>
      <App />
    </Boundary>,
    root,
  );
