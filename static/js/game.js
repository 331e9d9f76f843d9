/* The game page: picking and moving tiles (drag, touch, click, keyboard), the rack's
   sort order, the dock and the turn bar, and keeping all of it right when htmx or the websocket
   swaps in fresh parts of the page. The server decides everything: every edit is sent
   at once and the page shows the server's answer. */
(function () {
  "use strict";

  var SORT_KEY = "rummikub:rack-sort";
  var COLOURS = "RBKO";

  // ---------- tiles ----------

  function tileOrder(code, by) {
    if (code === "J") return [99, 9];
    var colour = COLOURS.indexOf(code.charAt(0));
    var number = parseInt(code.slice(1), 10);
    return by === "number" ? [number, colour] : [colour, number];
  }

  function compareTiles(by) {
    return function (a, b) {
      var x = tileOrder(a.dataset.tile, by);
      var y = tileOrder(b.dataset.tile, by);
      return x[0] - y[0] || x[1] - y[1];
    };
  }

  function page() {
    return document.querySelector(".game-page[data-move-url]");
  }

  function rackButtons() {
    var box = document.querySelector(".rack-tiles");
    return box ? tileButtons(box) : [];
  }

  function tileButtons(scope) {
    return Array.prototype.slice.call((scope || document).querySelectorAll("button.tile[data-source]"));
  }

  // A tile is known by where it is, its notation and which copy it is there, so a pick
  // survives the page part being swapped for a fresh one.
  function keyOf(button) {
    var same = tileButtons().filter(function (other) {
      return other.dataset.tile === button.dataset.tile && other.dataset.source === button.dataset.source;
    });
    return button.dataset.source + "|" + button.dataset.tile + "|" + same.indexOf(button);
  }

  function byKey(key) {
    var parts = key.split("|");
    var same = tileButtons().filter(function (b) {
      return b.dataset.source === parts[0] && b.dataset.tile === parts[1];
    });
    return same[parseInt(parts[2], 10)] || null;
  }

  // ---------- picking ----------

  var picked = [];
  var keyboard = false; // was the last input a key (then focus follows the tiles)?

  document.addEventListener("keydown", function () { keyboard = true; }, true);
  document.addEventListener("pointerdown", function () { keyboard = false; }, true);

  function pickedButtons() {
    return picked.map(byKey).filter(Boolean);
  }

  function showPicks() {
    var keys = {};
    picked.forEach(function (k) { keys[k] = true; });
    picked = picked.filter(function (k) { return byKey(k) !== null; });
    tileButtons().forEach(function (b) {
      b.setAttribute("aria-pressed", keys[keyOf(b)] ? "true" : "false");
    });
    var root = page();
    if (root) root.classList.toggle("is-picking", picked.length > 0);
    var arrange = document.querySelector("[data-arrange]");
    if (arrange) {
      var fromRack = pickedButtons().some(function (b) { return b.dataset.source === "rack"; });
      arrange.disabled = !fromRack;
      arrange.title = fromRack ? "Lay the picked tiles; the table is rearranged to fit them" : "Pick tiles on your rack first";
    }
  }

  function togglePick(button) {
    var key = keyOf(button);
    var at = picked.indexOf(key);
    if (at >= 0) picked.splice(at, 1);
    else picked.push(key);
    showPicks();
  }

  function clearPicks() {
    picked = [];
    showPicks();
  }

  // ---------- sending edits ----------

  function say(text, level) {
    var box = document.getElementById("game-message");
    if (!box) return;
    box.innerHTML = "";
    if (!text) return;
    var p = document.createElement("p");
    p.className = "flash flash-" + (level || "error");
    if ((level || "error") === "error") p.setAttribute("role", "alert");
    p.textContent = text;
    box.appendChild(p);
  }

  function post(url, values) {
    var root = page();
    return htmx.ajax("POST", url, { values: values, swap: "none", source: root });
  }

  function sendMove(buttons, target, position) {
    var root = page();
    if (!root || !buttons.length) return;
    var values = {
      tile: buttons.map(function (b) { return b.dataset.tile; }),
      source: buttons.map(function (b) { return b.dataset.source; }),
      target: String(target),
    };
    if (position !== null && position !== undefined) values.position = String(position);
    // Keyboard players keep their place: back on the rack after laying rack tiles, else
    // on the place the tiles went to.
    var rack = rackButtons();
    var fromRack = buttons.every(function (b) { return b.dataset.source === "rack"; });
    focusAfter = !keyboard ? null : fromRack && target !== "rack" ? "rack|" + rack.indexOf(buttons[0]) : "target|" + target;
    clearPicks();
    post(root.dataset.moveUrl, values);
  }

  function moveTo(target) {
    var buttons = pickedButtons();
    if (!buttons.length) {
      say("Pick one or more tiles first, then choose where they go.", "info");
      return;
    }
    // Without a position the server puts tiles joining a run in number order.
    sendMove(buttons, target, null);
  }

  // ---------- drag and drop ----------

  var dragging = null; // {buttons: [...], marker: element|null}

  function dropZone(element) {
    return element && element.closest ? element.closest("[data-drop]") : null;
  }

  function markerPosition(zone, x, y, moving) {
    var tilesBox = zone.querySelector(".meld-tiles");
    if (!tilesBox) return { position: null, before: null };
    var staying = tileButtons(tilesBox).filter(function (b) { return moving.indexOf(b) < 0; });
    for (var i = 0; i < staying.length; i++) {
      var r = staying[i].getBoundingClientRect();
      var sameRow = y >= r.top - 6 && y <= r.bottom + 6;
      if (y < r.top - 6 || (sameRow && x < r.left + r.width / 2)) {
        return { position: i, before: staying[i] };
      }
    }
    return { position: null, before: tilesBox.querySelector(".drop-slot") };
  }

  function showOver(zone, x, y) {
    document.querySelectorAll("[data-drop].is-over").forEach(function (z) {
      if (z !== zone) z.classList.remove("is-over");
    });
    if (dragging.marker) {
      dragging.marker.remove();
      dragging.marker = null;
    }
    if (!zone) return null;
    zone.classList.add("is-over");
    if (!/^\d+$/.test(zone.dataset.drop)) return null;
    var spot = markerPosition(zone, x, y, dragging.buttons);
    var marker = document.createElement("span");
    marker.className = "drop-marker";
    marker.setAttribute("aria-hidden", "true");
    if (spot.before) spot.before.parentNode.insertBefore(marker, spot.before);
    dragging.marker = marker;
    return spot.position;
  }

  function startDrag(button) {
    var buttons = button.getAttribute("aria-pressed") === "true" ? pickedButtons() : [button];
    dragging = { buttons: buttons, marker: null, position: null };
    buttons.forEach(function (b) { b.classList.add("is-dragging"); });
    var root = page();
    if (root) root.classList.add("is-picking");
  }

  function endDrag() {
    if (!dragging) return;
    dragging.buttons.forEach(function (b) { b.classList.remove("is-dragging"); });
    if (dragging.marker) dragging.marker.remove();
    document.querySelectorAll("[data-drop].is-over").forEach(function (z) { z.classList.remove("is-over"); });
    dragging = null;
    applyDeferred();
    showPicks();
  }

  function dropOn(zone, position) {
    var buttons = dragging.buttons;
    endDrag();
    if (!zone) return;
    var target = zone.dataset.drop;
    if (target === "rack" && buttons.every(function (b) { return b.dataset.source === "rack"; })) return;
    sendMove(buttons, target, /^\d+$/.test(target) ? position : null);
  }

  document.addEventListener("dragstart", function (event) {
    var button = event.target.closest && event.target.closest("button.tile[data-source]");
    if (!button) return;
    startDrag(button);
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragging.buttons.map(function (b) { return b.dataset.tile; }).join(" "));
  });

  document.addEventListener("dragover", function (event) {
    if (!dragging) return;
    var zone = dropZone(event.target);
    if (!zone) {
      showOver(null);
      return;
    }
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    dragging.position = showOver(zone, event.clientX, event.clientY);
  });

  document.addEventListener("drop", function (event) {
    if (!dragging) return;
    var zone = dropZone(event.target);
    if (!zone) return;
    event.preventDefault();
    dropOn(zone, dragging.position);
  });

  document.addEventListener("dragend", endDrag);

  // Touch and pen: HTML5 drag and drop does not follow a finger, so pointer events do.
  var touch = null; // {button, x, y, ghost}
  var swallowClick = false;

  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType === "mouse") return;
    var button = event.target.closest && event.target.closest("button.tile[data-source]");
    if (!button) return;
    touch = { button: button, x: event.clientX, y: event.clientY, ghost: null };
  });

  document.addEventListener("pointermove", function (event) {
    if (!touch) return;
    if (!touch.ghost) {
      if (Math.hypot(event.clientX - touch.x, event.clientY - touch.y) < 8) return;
      startDrag(touch.button);
      var ghost = document.createElement("div");
      ghost.className = "drag-ghost";
      dragging.buttons.forEach(function (b) {
        var copy = b.cloneNode(true);
        copy.removeAttribute("id");
        copy.classList.remove("is-dragging");
        ghost.appendChild(copy);
      });
      document.body.appendChild(ghost);
      touch.ghost = ghost;
    }
    event.preventDefault();
    touch.ghost.style.left = event.clientX + "px";
    touch.ghost.style.top = event.clientY + "px";
    var under = document.elementFromPoint(event.clientX, event.clientY);
    dragging.position = showOver(dropZone(under), event.clientX, event.clientY);
    followFinger(event.clientX, event.clientY);
  }, { passive: false });

  function endTouch(event, cancelled) {
    if (!touch) return;
    var ghost = touch.ghost;
    touch = null;
    if (!ghost) return;
    ghost.remove();
    swallowClick = true;
    setTimeout(function () { swallowClick = false; }, 400);
    if (cancelled) {
      endDrag();
      return;
    }
    var zone = dropZone(document.elementFromPoint(event.clientX, event.clientY));
    dropOn(zone, dragging ? dragging.position : null);
  }

  document.addEventListener("pointerup", function (event) { endTouch(event, false); });
  document.addEventListener("pointercancel", function (event) { endTouch(event, true); });

  // ---------- clicks and keys ----------

  document.addEventListener("click", function (event) {
    if (swallowClick) {
      event.preventDefault();
      return;
    }
    var t = event.target;
    var sort = t.closest("[data-sort]");
    if (sort) {
      setSort(sort.dataset.sort);
      return;
    }
    var dismiss = t.closest("[data-dismiss-help]");
    if (dismiss) {
      clearHelp();
      return;
    }
    var arrange = t.closest("[data-arrange]");
    if (arrange) {
      var rackTiles = pickedButtons().filter(function (b) { return b.dataset.source === "rack"; });
      if (!rackTiles.length) return;
      clearPicks();
      post(page().dataset.arrangeUrl, { tile: rackTiles.map(function (b) { return b.dataset.tile; }) });
      return;
    }
    var stay = t.closest("[data-stay]");
    if (stay) {
      stopNextGame();
      return;
    }
    var tile = t.closest("button.tile[data-source]");
    if (tile) {
      togglePick(tile);
      return;
    }
    var target = t.closest("[data-target]");
    if (target) {
      moveTo(target.dataset.target);
      return;
    }
    var zone = t.closest(".meld[data-drop], .rack-wood[data-drop]");
    if (zone && picked.length) moveTo(zone.dataset.drop);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picked.length) {
      clearPicks();
      say("");
      return;
    }
    var next = arrowTarget(event.target, event.key);
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  // ---------- the keyboard's way round the rack and the table ----------

  // The rack is one stop in the tab order and the table another (its tiles and each
  // set's "+"): a keyboard player reaches any set in a few keys, not one Tab per tile.
  // Left and right walk along the rack or a set, up and down go from set to set, and up
  // from the rack goes to the table.
  var stops = { rack: null, table: null };

  function tableRows() {
    return Array.prototype.slice.call(document.querySelectorAll("#game-board .melds[data-editable] .meld:not(.meld-new)"))
      .map(function (meld) { return Array.prototype.slice.call(meld.querySelectorAll("button.tile[data-source], .drop-slot")); });
  }

  function itemKey(el) {
    return el.matches(".drop-slot") ? "target|" + el.dataset.target : "tile|" + keyOf(el);
  }

  function tableStop() {
    var rows = tableRows();
    if (!rows.length) return null;
    var remembered = find(stops.table);
    if (remembered && remembered.closest("#game-board")) return remembered;
    var first = rows[0];
    return first[first.length - 1];
  }

  function rackStop() {
    var rack = rackButtons();
    var remembered = find(stops.rack);
    return remembered && rack.indexOf(remembered) >= 0 ? remembered : rack[0] || null;
  }

  function setTabStops() {
    var rack = rackStop();
    rackButtons().forEach(function (b) { b.tabIndex = b === rack ? 0 : -1; });
    var table = tableStop();
    tableRows().forEach(function (row) {
      row.forEach(function (item) { item.tabIndex = item === table ? 0 : -1; });
    });
  }

  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (!el.matches || !el.matches("button.tile[data-source], .melds .drop-slot")) return;
    if (el.closest(".rack-tiles")) stops.rack = itemKey(el);
    else if (el.closest("#game-board")) stops.table = itemKey(el);
    setTabStops();
  });

  function arrowTarget(el, key) {
    if (!el.matches || !el.matches("button.tile[data-source], .melds .drop-slot")) return null;
    if (el.closest(".rack-tiles")) {
      var rack = rackButtons();
      if (key === "ArrowUp") return tableStop();
      if (key === "ArrowLeft") return rack[rack.indexOf(el) - 1] || null;
      if (key === "ArrowRight") return rack[rack.indexOf(el) + 1] || null;
      return null;
    }
    var rows = tableRows();
    var r = rows.findIndex(function (row) { return row.indexOf(el) >= 0; });
    if (r < 0) return null;
    var at = rows[r].indexOf(el);
    if (key === "ArrowLeft") return rows[r][at - 1] || null;
    if (key === "ArrowRight") return rows[r][at + 1] || null;
    if (key !== "ArrowUp" && key !== "ArrowDown") return null;
    var other = rows[r + (key === "ArrowDown" ? 1 : -1)];
    if (!other) return key === "ArrowDown" ? document.querySelector('[data-target="new"]') : null;
    // From a "+" to the next "+"; from a tile to the tile in the same place.
    return el.matches(".drop-slot") ? other[other.length - 1] : other[Math.min(at, other.length - 2)];
  }

  // ---------- the rack's order ----------

  function currentSort() {
    try {
      return localStorage.getItem(SORT_KEY) || "colour";
    } catch (e) {
      return "colour";
    }
  }

  function setSort(by) {
    try {
      localStorage.setItem(SORT_KEY, by);
    } catch (e) { /* private mode: the order lasts for this page */ }
    sortRack();
  }

  function sortRack() {
    var by = currentSort();
    document.querySelectorAll(".rack-tiles").forEach(function (box) {
      var tiles = Array.prototype.slice.call(box.querySelectorAll(".tile[data-tile]"));
      var sorted = tiles.slice().sort(compareTiles(by));
      if (sorted.every(function (t, i) { return t === tiles[i]; })) return;
      // Moving a node loses its focus: give it back.
      var focused = box.contains(document.activeElement) ? document.activeElement : null;
      sorted.forEach(function (t) { box.appendChild(t); });
      if (focused) focused.focus({ preventScroll: true });
    });
    document.querySelectorAll("[data-sort]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.sort === by ? "true" : "false");
    });
  }

  // ---------- the clock (clock.js counts down; a swapped-in clock shows at once) ----------

  function tick() {
    if (window.RummikubClock) window.RummikubClock.tick();
  }

  // ---------- the dock, the turn bar and what comes into view ----------

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function stuckHeight(el) {
    if (!el || !el.offsetHeight) return 0;
    return getComputedStyle(el).position === "sticky" ? el.offsetHeight : 0;
  }

  // The heights of what sticks to the screen's edges, for the stylesheet (answers sit
  // just above the dock, a hint scrolls into the room between) and for a finger's drag.
  function measureLayout() {
    var root = page();
    if (!root) return;
    edges.header = stuckHeight(document.querySelector(".site-header"));
    edges.status = stuckHeight(document.querySelector(".status-live"));
    edges.dock = stuckHeight(document.getElementById("game-rack"));
    root.style.setProperty("--header-h", edges.header + "px");
    root.style.setProperty("--status-h", edges.status + "px");
    root.style.setProperty("--dock-h", edges.dock + "px");
  }

  var edges = { header: 0, status: 0, dock: 0 };
  var resizing = window.ResizeObserver ? new ResizeObserver(measureLayout) : null;

  // Swaps replace the dock and the turn bar: watch the new ones.
  function watchLayout() {
    if (!page()) return;
    if (resizing) {
      resizing.disconnect();
      [".site-header", ".status-live", "#game-rack"].forEach(function (selector) {
        var el = document.querySelector(selector);
        if (el) resizing.observe(el);
      });
    }
    measureLayout();
  }

  // The end of the game comes into view wherever the player was (at the rack, most
  // likely), and the keyboard's focus goes with it unless it is busy elsewhere.
  function resultHeading() {
    var heading = document.querySelector("#game-status .result h2");
    if (heading) heading.tabIndex = -1;
    return heading;
  }

  // To the top of the game (its title, then the result), at once: the parts swapped
  // after this one would stop a smooth scroll. Measured on the page, not the result,
  // whose box may still be stuck to the top of the screen.
  function scrollToResult() {
    var root = page();
    if (!root) return;
    window.scrollTo(0, Math.max(0, root.getBoundingClientRect().top + window.scrollY - edges.header - 8));
  }

  function showResult() {
    var heading = resultHeading();
    if (!heading) return;
    scrollToResult();
    // The turn bar stops sticking once the game is over, which moves the result: check
    // once the page has settled.
    requestAnimationFrame(function () {
      var box = heading.getBoundingClientRect();
      if (box.top < edges.header || box.bottom > window.innerHeight) scrollToResult();
    });
    var el = document.activeElement;
    if (!el || el === document.body || el.closest("#game-rack, #game-board, #game-status")) {
      heading.focus({ preventScroll: true });
      // The rest of this answer's parts may swap after this one: the focus comes back.
      focusAfter = null;
      focusKey = "result|";
    }
  }

  // A hint that arrives below the dock scrolls up into sight.
  var hintShown = false;
  function followHelp() {
    var hint = document.querySelector("#game-help .hint");
    if (hint && !hintShown) {
      document.getElementById("game-help").scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    hintShown = Boolean(hint);
  }

  // A finger dragging tiles near the top or bottom of the room between the turn bar and
  // the dock scrolls the page, faster nearer the edge, so any set can be reached.
  var EDGE = 56;
  var scrolling = null;

  function edgeSpeed(y) {
    var top = edges.header + edges.status;
    var bottom = window.innerHeight - edges.dock;
    if (y < top + EDGE) return -Math.max(2, Math.round(16 * (top + EDGE - y) / EDGE));
    // Only once the finger has left the dock: on its way up it crosses this band.
    if (touch.awayFromDock && y > bottom - EDGE && y <= bottom) return Math.max(2, Math.round(16 * (y - bottom + EDGE) / EDGE));
    return 0;
  }

  function followFinger(x, y) {
    touch.lastX = x;
    touch.lastY = y;
    if (y < window.innerHeight - edges.dock - EDGE) touch.awayFromDock = true;
    touch.speed = edgeSpeed(y);
    if (touch.speed && !scrolling) scrolling = requestAnimationFrame(scrollStep);
  }

  function scrollStep() {
    scrolling = null;
    if (!touch || !touch.ghost || !dragging || !touch.speed) return;
    window.scrollBy(0, touch.speed);
    var under = document.elementFromPoint(touch.lastX, touch.lastY);
    dragging.position = showOver(dropZone(under), touch.lastX, touch.lastY);
    scrolling = requestAnimationFrame(scrollStep);
  }

  // ---------- after every swap ----------

  var seen = { turn: null, version: null, over: null };
  var focusKey = null;
  var focusAfter = null;
  var nextTimer = null;

  function clearHelp() {
    var help = document.getElementById("game-help");
    if (help) help.innerHTML = "";
    hintShown = false;
  }

  // A button of the dock that is gone with the turn (End turn, Draw) hands the focus to
  // the rack, so the keyboard stays where the player was rather than back at the top.
  function dockFallback() {
    var tiles = document.querySelector("#game-rack .rack-tiles");
    if (!tiles) return null;
    tiles.tabIndex = -1;
    return tiles;
  }

  function rememberFocus() {
    var el = document.activeElement;
    if (!el || !page() || !page().contains(el)) return;
    if (el.matches("button.tile[data-source]")) focusKey = "tile|" + keyOf(el);
    else if (el.dataset && el.dataset.target) focusKey = "target|" + el.dataset.target;
    else if (el.dataset && el.dataset.sort) focusKey = "sort|" + el.dataset.sort;
    else if (el.id && el.closest("details[id]")) focusKey = "id|" + el.id;
    else if (el.closest("#game-rack")) focusKey = "dock|";
    else if (el.closest("#game-status .result")) focusKey = "result|";
    else focusKey = null;
  }

  function find(key) {
    if (!key) return null;
    var kind = key.slice(0, key.indexOf("|"));
    var rest = key.slice(key.indexOf("|") + 1);
    if (kind === "tile") return byKey(rest);
    if (kind === "target") return document.querySelector('[data-target="' + rest + '"]');
    if (kind === "sort") return document.querySelector('[data-sort="' + rest + '"]');
    if (kind === "id") return document.getElementById(rest);
    if (kind === "dock") return rackStop() || dockFallback();
    if (kind === "result") return resultHeading();
    if (kind === "rack") {
      var rack = rackButtons();
      return rack[Math.min(parseInt(rest, 10), rack.length - 1)] || document.querySelector('[data-target="new"]');
    }
    return null;
  }

  // Disclosures the player opened (the resign panel) stay open when a push or an answer
  // swaps in a fresh copy of their part, which the server renders closed: known by id.
  var openIds = [];

  function rememberOpen() {
    var root = page();
    if (!root) return;
    openIds = Array.prototype.map.call(root.querySelectorAll("details[id][open]"), function (d) {
      return d.id;
    });
  }

  function restoreOpen() {
    openIds.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS" && !details.open) details.open = true;
    });
  }

  function restoreFocus() {
    var lost = !document.activeElement || document.activeElement === document.body;
    var wanted = find(focusAfter) || (lost ? find(focusKey) : null);
    if (lost && focusAfter && !wanted) wanted = document.querySelector(".rack-tiles button.tile");
    if (wanted && (lost || focusAfter)) wanted.focus({ preventScroll: true });
    // focusKey stays: one answer swaps several parts, each followed by a refresh, and a
    // later part may replace the element focused after an earlier one.
    focusAfter = null;
  }

  function stopNextGame() {
    if (nextTimer) clearInterval(nextTimer);
    nextTimer = null;
    var note = document.querySelector("[data-next-note]");
    if (note) note.textContent = "";
  }

  function startNextGame() {
    var link = document.querySelector("[data-next-game]");
    var note = document.querySelector("[data-next-note]");
    if (!link || !note || nextTimer) return;
    var left = 15;
    note.innerHTML = "";
    var text = document.createElement("span");
    var stay = document.createElement("button");
    stay.type = "button";
    stay.className = "button button-quiet button-small";
    stay.dataset.stay = "";
    stay.textContent = "Stay here";
    note.appendChild(text);
    note.appendChild(document.createTextNode(" "));
    note.appendChild(stay);
    var show = function () { text.textContent = "Next game in " + left + " s."; };
    show();
    nextTimer = setInterval(function () {
      left -= 1;
      if (left <= 0) {
        stopNextGame();
        window.location.assign(link.href);
        return;
      }
      show();
    }, 1000);
  }

  // Tiles that arrive on the table with a new turn glow for a moment.
  var boardTiles = null;
  function countBoard() {
    var counts = {};
    document.querySelectorAll("#game-board .melds .meld-tiles .tile[data-tile]").forEach(function (t) {
      counts[t.dataset.tile] = (counts[t.dataset.tile] || 0) + 1;
    });
    return counts;
  }

  function markFresh(before) {
    var seenSoFar = {};
    document.querySelectorAll("#game-board .melds .meld-tiles .tile[data-tile]").forEach(function (t) {
      var code = t.dataset.tile;
      seenSoFar[code] = (seenSoFar[code] || 0) + 1;
      if (seenSoFar[code] > (before[code] || 0)) t.classList.add("is-fresh");
    });
  }

  var baseTitle = document.title;
  function followStatus() {
    var status = document.getElementById("game-status");
    if (!status) return;
    var turn = status.dataset.turn;
    var over = status.dataset.over === "1";
    var mine = status.classList.contains("is-mine");
    document.title = (mine ? "● Your turn · " : "") + baseTitle;
    // Compared with the table as this page last showed it: a player's own tiles were
    // already there in their turn in progress, so the others' new tiles are the ones.
    if (seen.turn !== null && turn !== seen.turn && boardTiles) markFresh(boardTiles);
    boardTiles = countBoard();
    if (seen.turn !== null && turn !== seen.turn) {
      // A new turn: an old hint, notice or pick means nothing any more.
      clearHelp();
      var building = document.getElementById("game-building");
      if (building) building.innerHTML = "";
      clearPicks();
    }
    if (over && seen.over === false) {
      showResult();
      startNextGame();
    }
    seen = { turn: turn, version: status.dataset.version, over: over };
  }

  // Run in the same task as the swap: a key pressed a moment later already finds the
  // focus where it belongs.
  function refresh() {
    sortRack();
    showPicks();
    watchLayout();
    followStatus();
    followHelp();
    restoreOpen();
    restoreFocus();
    setTabStops();
    tick();
  }

  function liveState(state, words) {
    var pill = document.querySelector(".live-pill");
    if (!pill) return;
    pill.dataset.live = state;
    pill.querySelector(".live-text").textContent = words;
  }

  // ---------- what the page shows, said to its socket ----------

  // A random id for this page load. Its htmx requests carry it (X-Game-Page), so the push
  // of a move made here is not sent back here: the move's answer brought it.
  var pageId = (function () {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  })();

  document.addEventListener("htmx:configRequest", function (event) {
    event.detail.headers["X-Game-Page"] = pageId;
  });

  // Each (re)connect of the game's socket says what the page shows at that moment
  // (htmx.createWebSocket is the ws extension's hook for making sockets), and the server
  // sends only what the page lacks: nothing to a page that is current.
  if (window.htmx) {
    var makeSocket = window.htmx.createWebSocket;
    window.htmx.createWebSocket = function (url) {
      var said = saidTo(url);
      return makeSocket ? makeSocket(said) : new WebSocket(said, []);
    };
  }

  function saidTo(url) {
    if (!/\/ws\/games\/\d+\/$/.test(url)) return url;
    var status = document.getElementById("game-status");
    var lines = document.getElementById("table-chat-lines");
    var query = ["page=" + pageId];
    if (status && status.dataset.version) query.push("v=" + status.dataset.version, "l=" + (status.dataset.live || "0"));
    if (lines && lines.dataset.chat) query.push("c=" + lines.dataset.chat);
    return url + "?" + query.join("&");
  }

  document.addEventListener("htmx:wsConnecting", fromGame(function () { liveState("connecting", "Connecting…"); }));
  document.addEventListener("htmx:wsOpen", fromGame(function () { liveState("open", "Live updates"); }));
  document.addEventListener("htmx:wsClose", fromGame(function () { liveState("closed", "Reconnecting…"); }));
  // A swap in the middle of a drag would pull the tiles from under the pointer: pushes
  // and answers that arrive then wait until the drop, and are applied in order.
  var deferred = [];
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (dragging) {
      deferred.push(event.detail.message);
      event.preventDefault();
      return;
    }
    rememberFocus();
    rememberOpen();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (dragging && page() && page().contains(event.detail.target)) {
      deferred.push(event.detail.serverResponse);
      event.detail.shouldSwap = false;
      return;
    }
    rememberFocus();
    rememberOpen();
  });

  function applyDeferred() {
    var socket = document.querySelector(".game-layout[ws-connect]");
    var waiting = deferred;
    deferred = [];
    if (!socket || !waiting.length) return;
    rememberOpen();
    waiting.forEach(function (html) { htmx.swap(socket, html, { swapStyle: "none" }); });
    refresh();
  }
  // The header has a socket of its own (notices): only the game's says "Live updates".
  function fromGame(handler) {
    return function (event) {
      if (event.target && event.target.matches && event.target.matches(".game-layout")) handler(event);
    };
  }
  document.addEventListener("htmx:wsAfterMessage", refresh);
  // The page counts the game's pushes (tests count them: a page that is current is sent
  // none when it connects, the mover's page none for its own move).
  document.addEventListener("htmx:wsAfterMessage", fromGame(function () {
    var root = page();
    if (root) root.dataset.pushes = String(Number(root.dataset.pushes || 0) + 1);
  }));
  document.addEventListener("htmx:afterSwap", refresh);
  // The solver's answer comes by a socket of its own (ws/answers/<job>/), which closes as
  // the answer replaces its "thinking": the page follows it as it does the game's pushes.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var swapped = event.target;
    if (swapped && swapped.id && swapped.id.indexOf("answer-") === 0) refresh();
  });
  document.addEventListener("htmx:responseError", function () {
    say("Something went wrong on the server; nothing was changed. Reload the page if it happens again.");
  });
  document.addEventListener("htmx:sendError", function () {
    say("The server could not be reached: your last action was not sent.");
  });

  function start() {
    sortRack();
    var status = document.getElementById("game-status");
    if (status) seen = { turn: status.dataset.turn, version: status.dataset.version, over: status.dataset.over === "1" };
    boardTiles = countBoard();
    watchLayout();
    window.addEventListener("resize", measureLayout);
    document.addEventListener("toggle", measureLayout, true);
    followStatus();
    setTabStops();
    tick();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
