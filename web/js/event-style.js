// The tournament pages' stylesheet, linked once when a tournament page
// first opens (the rest of the client does not need it).

let linked = false;

/** Links css/events.css into the document, once. */
export function linkEventStyle() {
  if (linked) return;
  linked = true;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/css/events.css';
  document.head.append(link);
}
