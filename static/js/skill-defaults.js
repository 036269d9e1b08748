// The Eclipse Phase creation page: each untrained skill's default follows its linked aptitude
// as the player types it (templates/eclipse/_create.html: an aptitude's input is named by its
// code, each default's number is a [data-aptitude-value] span naming the code). The server
// renders the same numbers; without this script they follow on the next submit.
(function () {
  "use strict";
  document.addEventListener("input", function (event) {
    var input = event.target;
    var form = input.closest && input.closest("#eclipse-create form");
    if (!form || !/^[A-Z]{3}$/.test(input.name)) {
      return;
    }
    var value = input.value.trim();
    form.querySelectorAll('[data-aptitude-value="' + input.name + '"]').forEach(function (span) {
      span.textContent = /^\d+$/.test(value) ? " (" + value + ")" : "";
    });
  });
})();
