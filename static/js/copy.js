// A button with data-copy="<id>" copies the value of that field to the clipboard and
// says so; where the clipboard is out of reach the field is selected for the member.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) {
    return;
  }
  var field = document.getElementById(button.getAttribute("data-copy"));
  if (!field) {
    return;
  }
  var label = button.textContent;
  function done(text) {
    button.textContent = text;
    setTimeout(function () {
      button.textContent = label;
    }, 2000);
  }
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(
      function () {
        done("Copied");
      },
      function () {
        done("Press Ctrl+C");
      }
    );
  } else {
    done("Press Ctrl+C");
  }
});
