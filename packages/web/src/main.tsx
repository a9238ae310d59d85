import { render } from 'preact';
import { App } from './app';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  render(<App />, root);
  // The first-view benchmark (bench/console-first-view.ts) reads this mark.
  performance.mark('dbops:first-view');
}
