// New tournament form: the slug follows the name as it is typed, the way the server makes one
// (Django's slugify), until the organiser types a slug of their own. Without this script the
// slug may be left empty and the server makes it from the name.
(function () {
  "use strict";

  function slugify(text) {
    return text
      .normalize("NFKD")
      .replace(/[^\x00-\x7f]/g, "")
      .replace(/[^\w\s-]/g, "")
      .toLowerCase()
      .trim()
      .replace(/[-\s]+/g, "-")
      .replace(/^[-_]+|[-_]+$/g, "")
      .slice(0, 90);
  }

  document.querySelectorAll("input[data-slug-from]").forEach(function (slug) {
    var name = document.getElementById(slug.getAttribute("data-slug-from"));
    if (!name) {
      return;
    }
    // Follows the name while empty or still what was made from it.
    var made = slug.value;
    var follows = slug.value === "" || slug.value === slugify(name.value);
    name.addEventListener("input", function () {
      if (follows) {
        made = slugify(name.value);
        slug.value = made;
      }
    });
    slug.addEventListener("input", function () {
      follows = slug.value === "" || slug.value === made;
    });
  });
})();
