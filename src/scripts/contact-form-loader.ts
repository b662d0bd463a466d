// What a page with a contact form loads up front (the contact page, "Ask about this work" on a
// work's page — issue 25): this loader only. The form's behaviour (contact-form.ts, ≈ 1.3 KB gzip,
// with Vite's preload helper for the schema it loads in turn) comes when the visitor first
// reaches into a form — focus, a pointer, or a submit —, so a work's page stays within its
// JavaScript budget (bench/budgets.json: 8 KB gzip before the zoom opens). Until then the form
// is the plain HTML form the server answers without JavaScript; a submit that comes first waits
// for the behaviour and is then made again, so the visitor's click is never lost.
const forms = [...document.querySelectorAll<HTMLFormElement>('form[data-contact-form]')];
let ready = false;
let loading: Promise<void> | undefined;
const load = () =>
  (loading ??= import('./contact-form.ts').then(
    () => {
      ready = true;
    },
    () => {
      // Offline or a failed request: the next reach into the form tries again; meanwhile the
      // form posts as it does without JavaScript.
      loading = undefined;
    },
  ));

for (const form of forms) {
  // Our own messages replace the browser's bubbles (contact-form.ts), from the first submit on.
  form.noValidate = true;
  const start = () => void load();
  form.addEventListener('focusin', start, { once: true });
  form.addEventListener('pointerdown', start, { once: true });
  form.addEventListener('submit', (event) => {
    if (ready) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const submitter = event.submitter;
    void load().then(() => {
      if (ready) form.requestSubmit(submitter instanceof HTMLElement ? submitter : null);
      else HTMLFormElement.prototype.submit.call(form);
    });
  });
}
