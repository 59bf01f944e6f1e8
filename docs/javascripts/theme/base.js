// MkDocs Material 9.8's partials/javascripts/base.html, moved out of the page for the CSP.
// The one change: the theme writes the site root into the inline script ("{{ base_url }}");
// here it is this file's own location, two levels below the site root.
__md_scope = new URL("../..", document.currentScript.src);
__md_hash = (e) => [...e].reduce((e, _) => (e << 5) - e + _.charCodeAt(0), 0);
__md_get = (e, _ = localStorage, t = __md_scope) => JSON.parse(_.getItem(t.pathname + "." + e));
__md_set = (e, _, t = localStorage, a = __md_scope) => {
  try {
    t.setItem(a.pathname + "." + e, JSON.stringify(_));
  } catch (e) {}
};
