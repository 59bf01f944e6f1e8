// MkDocs Material 9.8's partials/javascripts/content.html, verbatim, moved out of the page for the CSP.
var target=document.getElementById(location.hash.slice(1));target&&target.name&&(target.checked=target.name.startsWith("__tabbed_"))
