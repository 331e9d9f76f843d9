/* The new table form: choosing rules fills in every option with that preset's value,
   options that differ from it are marked, seats past the number of players are hidden,
   and a username box shows only for an invited seat. Without this script the form still
   works: every field is sent and checked on the server. */
(function () {
  "use strict";

  function start() {
    var form = document.querySelector(".table-form");
    var data = document.getElementById("preset-values");
    if (!form || !data) return;
    var presets = JSON.parse(data.textContent);
    var preset = form.querySelector('[name="preset"]');
    var seats = form.querySelector('[name="seats"]');
    var games = form.querySelector('[name="games_in_round"]');

    function value(field) {
      if (field.type === "checkbox") return field.checked;
      var raw = field.value;
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    }

    function markChanges() {
      var base = presets[preset.value] || {};
      var changed = 0;
      Object.keys(base).forEach(function (name) {
        var field = form.querySelector('[name="' + name + '"]');
        if (!field) return;
        var differs = value(field) !== base[name];
        field.closest(".field").classList.toggle("is-changed", differs);
        if (differs) changed += 1;
      });
      var count = form.querySelector("[data-changed-count]");
      if (count) count.textContent = changed ? "(" + changed + " house rule" + (changed > 1 ? "s" : "") + ")" : "";
    }

    function applyPreset() {
      var base = presets[preset.value] || {};
      Object.keys(base).forEach(function (name) {
        var field = form.querySelector('[name="' + name + '"]');
        if (!field) return;
        if (field.type === "checkbox") field.checked = base[name];
        else field.value = String(base[name]);
      });
      markChanges();
    }

    function showSeats() {
      var count = Number(seats.value);
      form.querySelectorAll("[data-seat-row]").forEach(function (row) {
        var number = Number(row.dataset.seatRow);
        row.hidden = number > count;
        var kind = row.querySelector("select");
        var user = row.querySelector("[data-seat-user]");
        user.hidden = kind.value !== "invite";
        // The server's first folding (is-folded) gives way to this one.
        row.classList.remove("is-folded");
        user.classList.remove("is-folded");
      });
      if (games) games.placeholder = String(count);
    }

    // Each clock offers its own turn times: the others are greyed out. Only a
    // correspondence clock pauses on weekends: live tables hide the box.
    var turn = form.querySelector('[name="turn_seconds"]');
    var weekend = form.querySelector('[name="weekend_pause"]');
    function showClock() {
      var checked = form.querySelector('[name="clock"]:checked');
      if (!checked || !turn) return;
      var live = checked.value === "live";
      if (weekend) {
        var box = weekend.closest(".field");
        box.hidden = live;
        box.classList.remove("is-folded"); // the server's first folding gives way
      }
      var wanted = live ? "Live" : "Correspondence";
      var groups = turn.querySelectorAll("optgroup");
      groups.forEach(function (group) {
        group.disabled = group.label !== wanted;
      });
      var current = turn.selectedOptions[0];
      if (current && current.parentNode.disabled) {
        var first = turn.querySelector('optgroup[label="' + wanted + '"] option');
        if (first) turn.value = first.value;
        if (!live) {
          var day = turn.querySelector('option[value="86400"]');
          if (day) turn.value = "86400";
        }
      }
    }
    form.querySelectorAll('[name="clock"]').forEach(function (radio) {
      radio.addEventListener("change", showClock);
    });
    showClock();

    preset.addEventListener("change", applyPreset);
    seats.addEventListener("change", showSeats);
    form.addEventListener("change", function (event) {
      if (event.target.closest("[data-seat-row]")) showSeats();
      if (event.target.closest("[data-option]")) markChanges();
    });
    showSeats();
    markChanges();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
