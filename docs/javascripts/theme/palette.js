// MkDocs Material 9.8's partials/javascripts/palette.html, verbatim, moved out of the page for the CSP,
// after one line of ours: the attribute the theme's palette sets on <body> while it applies the
// palette (no transitions meanwhile), set from the start. The theme sets it again as its bundle
// starts, which is then no change, and removes it once: setting it then had every element of the
// essay styled again, once more than needed.
document.body.setAttribute("data-md-color-switching", "");
var palette=__md_get("__palette");if(palette&&palette.color){if("(prefers-color-scheme)"===palette.color.media){var media=matchMedia("(prefers-color-scheme: light)"),input=document.querySelector(media.matches?"[data-md-color-media='(prefers-color-scheme: light)']":"[data-md-color-media='(prefers-color-scheme: dark)']");palette.color.media=input.getAttribute("data-md-color-media"),palette.color.scheme=input.getAttribute("data-md-color-scheme"),palette.color.primary=input.getAttribute("data-md-color-primary"),palette.color.accent=input.getAttribute("data-md-color-accent")}for(var[key,value]of Object.entries(palette.color))document.body.setAttribute("data-md-color-"+key,value)}
