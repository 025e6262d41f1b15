/** Entry of the operator UI bundle. */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app')!;
root.textContent = '';
render(<App user={root.dataset.user ?? ''} csrf={document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''} />, root);
