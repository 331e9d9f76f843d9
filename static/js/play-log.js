// The game page's alerts and shortcuts for what happens in the game (the move log is
// plain htmx): a sound and, with the browser's permission, a desktop notification when
// it becomes your turn; Ctrl+Z (Cmd+Z) takes back the last change of your turn.
(function () {
  "use strict";

  var KEY = "rk-turn-alerts";
  var audio = null;
  var wasMine = null;

  function enabled() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function showButton() {
    var button = document.querySelector("[data-turn-alerts]");
    if (!button) return;
    var on = enabled();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "Alerts on" : "Alert me on my turn";
  }

  // Two soft notes; the audio context may only start after a click, which the button is.
  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended" && audio.resume) audio.resume();
    [660, 880].forEach(function (pitch, i) {
      var start = audio.currentTime + i * 0.16;
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.32);
    });
  }

  function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    // Only when the page is out of sight: on it, the banner and the sound say enough.
    if (!document.hidden && document.hasFocus()) return;
    var heading = document.querySelector(".game-head h1");
    var note = new Notification("Your turn", {
      body: (heading ? heading.textContent.replace(/\s+/g, " ").trim() + ": " : "") + "it is your move.",
      tag: "rk-turn-" + (document.querySelector(".game-page") || { dataset: {} }).dataset.game,
    });
    note.onclick = function () { window.focus(); note.close(); };
  }

  function followTurn() {
    var status = document.getElementById("game-status");
    if (!status) return;
    var mine = status.classList.contains("is-mine");
    if (wasMine === false && mine && enabled()) {
      chime();
      notify();
    }
    wasMine = mine;
    showButton();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-turn-alerts]");
    if (!button) return;
    var on = !enabled();
    remember(on);
    if (on) {
      chime();
      if ("Notification" in window && Notification.permission === "default") {
        Notification.requestPermission();
      }
    }
    showButton();
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "z" && event.key !== "Z") return;
    if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
    var field = event.target;
    if (field && (field.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName))) return;
    var undo = document.querySelector("#game-rack [data-undo]");
    if (!undo) return;
    event.preventDefault();
    undo.click();
  });

  document.addEventListener("htmx:wsAfterMessage", followTurn);
  document.addEventListener("htmx:afterSwap", followTurn);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followTurn);
  else followTurn();
})();
