/* A table's chat panel: empty the box once a message is sent, and keep the newest
   messages in view when the chat is swapped in (a push, or the answer to a post). */
(function () {
  "use strict";

  function body() {
    return document.querySelector("#table-chat-lines .chat-list");
  }

  var nearBottom = true;

  function remember() {
    var box = body();
    if (box) nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  }

  function keepNewestInView() {
    var box = body();
    if (box && nearBottom) box.scrollTop = box.scrollHeight;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form && form.matches && form.matches(".chat-form") && event.detail.successful) {
      form.reset();
      nearBottom = true;
      keepNewestInView();
    }
  });
  document.addEventListener("htmx:oobBeforeSwap", remember);
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:oobAfterSwap", keepNewestInView);
  document.addEventListener("htmx:wsAfterMessage", keepNewestInView);
  document.addEventListener("DOMContentLoaded", function () {
    nearBottom = true;
    keepNewestInView();
  });
})();
