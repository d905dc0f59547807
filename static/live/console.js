/* The director console, live from its socket's snapshots (screens.snapshots.director_snapshot): the
 * clock widget is clock.js's; this script redraws the changing parts of the other panels (numbers,
 * rows, which clock buttons are offered) from the same snapshot. It never fetches the page again.
 *
 * - Text goes in through textContent and rows are built with DOM calls or cloned from the page's own
 *   <template> elements (#console-live: forms with their csrf token): names are user input.
 * - What the director is doing is left alone: the focused element and anything typed stay (a row is
 *   updated in place, a control being used is not replaced, a moved row gets its focus back).
 * - Versions: the socket (live.js) drops a snapshot not newer than the last one shown and asks again
 *   after a reconnect or a wake; a snapshot older than the page itself changes no panel either.
 * - A panel or a control the director's role does not have is absent: every part is optional.
 * - Disconnected, the page says so and dims the panels until a snapshot arrives again. */
(function () {
  "use strict";
  var L = window.Live;
  var ID = "999999999"; // the id placeholder in the <template> forms' addresses

  // A form with data-confirm asks first: static/live/confirm.js, loaded in every page's <head>.

  var live, T;

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $$(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function text(v) { return v === null || v === undefined ? "" : String(v); }
  function dash(v) { return v === null || v === undefined || v === "" ? "–" : String(v); }
  function setText(node, value) { if (node && node.textContent !== value) node.textContent = value; }

  /* A clone of a page <template> (null when the director's role has none), its ids filled in. */
  function fromTemplate(name, id) {
    var tpl = live && $('template[data-template="' + name + '"]', live);
    if (!tpl) return null;
    var node = tpl.content.firstElementChild.cloneNode(true);
    if (id !== undefined) {
      [node].concat($$("[action], [href]", node)).forEach(function (n) {
        ["action", "href"].forEach(function (attr) {
          var v = n.getAttribute(attr);
          if (v && v.indexOf(ID) >= 0) n.setAttribute(attr, v.replace(ID, String(id)));
        });
      });
    }
    return node;
  }

  /* The director is using this part of the page: the focus is in it, a "Remove…" is open, or a
   * field in it holds typed text. */
  function busy(node) {
    if (!node) return false;
    var active = document.activeElement;
    if (active && active !== document.body && node.contains(active)) return true;
    if ($("details[open]", node)) return true;
    return $$("input:not([type=hidden]), textarea", node).some(function (input) { return input.value !== input.defaultValue; });
  }

  /* Put ``nodes`` in ``parent`` in this order, moving only what must move (a node that keeps its
   * place keeps its focus); ``keep`` says which other children stay (after them). */
  function arrange(parent, nodes, keep) {
    var cursor = parent.firstChild;
    nodes.forEach(function (node) {
      if (node === cursor) { cursor = cursor.nextSibling; return; }
      parent.insertBefore(node, cursor);
    });
    while (cursor) {
      var next = cursor.nextSibling;
      if (cursor.nodeType === 1 && !(keep && keep(cursor))) parent.removeChild(cursor);
      else if (cursor.nodeType === 3 && !cursor.nodeValue.trim()) parent.removeChild(cursor);
      cursor = next;
    }
  }

  /* Rebuild a node's content only when what it shows changed (``sig``), and never while in use. */
  function redraw(node, sig, build) {
    if (node.getAttribute("data-sig") === sig || busy(node)) return;
    while (node.firstChild) node.removeChild(node.firstChild);
    build(node);
    node.setAttribute("data-sig", sig);
  }

  /* --- the clock's controls ------------------------------------------------------------------ */

  function offerOf(form) {
    var button = $("button[data-action], button[data-live-action]", form);
    return button ? button.getAttribute("data-action") || button.getAttribute("data-live-action") : null;
  }

  /* A clock button from its template: only a drawn button is one (its action, its hotkey), so the
   * page's HTML names only the buttons offered when it was drawn. */
  function drawnButton(form) {
    var node = form.cloneNode(true);
    $$("[data-live-action]", node).forEach(function (b) {
      b.setAttribute("data-action", b.getAttribute("data-live-action"));
      b.removeAttribute("data-live-action");
      if (b.hasAttribute("data-live-hotkey")) {
        b.setAttribute("data-hotkey", b.getAttribute("data-live-hotkey"));
        b.removeAttribute("data-live-hotkey");
      }
    });
    return node;
  }

  /* The buttons of a row in the template's order, those offered now (console_controls.offers). */
  function reconcileOffers(row, templateName, offers) {
    var tpl = row && live && $('template[data-template="' + templateName + '"]', live);
    if (!tpl) return;
    var existing = {};
    $$(":scope > form", row).forEach(function (form) { var a = offerOf(form); if (a) existing[a] = form; });
    var known = {}, wanted = [];
    Array.prototype.forEach.call(tpl.content.children, function (form) {
      var action = offerOf(form);
      known[action] = true;
      if (offers[form.getAttribute("data-offer")]) wanted.push(existing[action] || drawnButton(form));
    });
    // Other controls of the row (the "Go to level" form) stay where they are, first.
    var others = $$(":scope > *", row).filter(function (n) { return !known[offerOf(n)]; });
    arrange(row, others.concat(wanted));
  }

  function renderClockControls(c) {
    var phase = $("[data-role=phase]");
    if (phase) {
      setText(phase, T.phase[c.phase] || c.phase);
      phase.className = "pill phase-" + c.phase;
    }
    reconcileOffers($("[data-role=clock-buttons]"), "clock-buttons", c.offers);
    reconcileOffers($("[data-role=clock-levels]"), "clock-levels", c.offers);
    var select = $("select[data-role=go-to-level]");
    if (select && document.activeElement !== select) {
      // Follows the clock unless the director has chosen another level there.
      // Before the first snapshot the level shown is the one the page came with (a choice made
      // before the snapshot arrived is the director's too).
      var first = select.querySelector("option[selected]");
      var shown = select.getAttribute("data-shown");
      if (shown === null) shown = first ? first.value : select.value;
      if (shown === select.value) {
        select.value = String(c.level_index);
        select.setAttribute("data-shown", select.value);
      }
    }
    var panel = $("[data-live-panel=clock-controls]");
    var box = $("[data-role=hand-for-hand]");
    if (c.phase !== "hand_for_hand") { if (box) box.remove(); return; }
    if (!box && panel) { box = fromTemplate("hand-for-hand"); if (box) panel.appendChild(box); }
    var list = box && $("ul", box);
    if (!list) return;
    var rows = c.hand_for_hand_tables.map(function (t) {
      var cls = "pill" + (t.state === "done" ? " ok" : t.state === "playing" ? " warn" : "");
      return L.el("li", { class: cls, "data-table": t.number, "data-state": t.state,
        text: L.interp(T.table_state, { number: t.number, state: T.hand_for_hand[t.state] || t.state }) });
    });
    if (!rows.length) rows = [L.el("li", { class: "muted", text: T.round_starts })];
    redraw(list, JSON.stringify(c.hand_for_hand_tables), function (node) { rows.forEach(function (r) { node.appendChild(r); }); });
  }

  /* --- floor calls, status ----------------------------------------------------------------------- */

  function renderFloor(calls) {
    var panel = $("[data-live-panel=floor]");
    if (!panel) return;
    var existing = {};
    $$("[data-call]", panel).forEach(function (n) { existing[n.getAttribute("data-call")] = n; });
    var rows = [];
    calls.forEach(function (call) {
      var row = existing[String(call.id)];
      if (!row) {
        row = fromTemplate("floor-call", call.id);
        if (!row) return;
        row.setAttribute("data-call", call.id);
        setText($("strong", row), L.interp(T.floor_call, { number: call.table, time: call.time }));
      }
      rows.push(row);
    });
    arrange(panel, rows, busy);
  }

  /* --- registration and bust-outs ---------------------------------------------------------------- */

  function placeCell(cell, e) {
    redraw(cell, [e.status, e.place, e.place_shared_to].join("|"), function (node) {
      if (e.place) {
        node.appendChild(document.createTextNode(e.place + (e.place_shared_to && e.place_shared_to !== e.place ? "–" + e.place_shared_to : "")));
      } else if (e.status === "active") node.appendChild(L.el("span", { class: "pill ok", text: T["in"] }));
      else node.appendChild(L.el("span", { class: "pill out", text: T.out }));
    });
  }

  function controlsCell(cell, e, offers) {
    var kind = e.status === "active" && offers.bust ? (e.chips === 0 ? "bust" : "remove") : "none";
    var current = $("form[action$='/bust/']", cell) ? "bust" : $("details.remove", cell) ? "remove" : cell.children.length ? "other" : "none";
    if (current !== kind) {
      if (busy(cell)) return; // the director is in the middle of a removal: theirs to finish
      while (cell.firstChild) cell.removeChild(cell.firstChild);
      var control = kind === "none" ? null : fromTemplate(kind, e.id);
      if (control) cell.appendChild(control);
    }
    if (kind === "bust" && T.bust) setText($("button", cell), L.interp(T.bust, { name: e.name }));
    if (kind === "remove" && T.remove) {
      var label = $("label", cell), words = L.interp(T.remove, { name: e.name, chips: e.chips });
      if (!label) return;
      var slot = $("[data-slot=text]", label);
      if (slot) setText(slot, words);
      else if (label.firstChild && label.firstChild.nodeType === 3 && label.firstChild.nodeValue.trim() !== words) {
        label.firstChild.nodeValue = words + " ";
      }
    }
  }

  function renderEntries(c) {
    var panel = $("#entries");
    var body = panel && $("tbody", panel);
    if (!body || live.getAttribute("data-entry-query")) return; // a search's rows are the search's
    var existing = {};
    $$("tr[data-entry]", body).forEach(function (tr) { existing[tr.getAttribute("data-entry")] = tr; });
    var rows = c.entries.map(function (e) {
      var tr = existing[String(e.id)];
      if (!tr) {
        tr = L.el("tr", { "data-entry": e.id }, [L.el("td"), L.el("td", { class: "num" }), L.el("td"), L.el("td", { class: "num" }), L.el("td")]);
      }
      var cells = tr.children;
      setText(cells[0], e.name);
      setText(cells[1], e.status === "active" ? String(e.chips) : "");
      placeCell(cells[2], e);
      setText(cells[3], e.prize ? String(e.prize) : "");
      controlsCell(cells[4], e, c.offers);
      return tr;
    });
    if (!rows.length) rows = [$("tr:not([data-entry])", body) || L.el("tr", null, [L.el("td", { colspan: 5, class: "muted", text: T.no_entries })])];
    arrange(body, rows, busy);
    var shown = $("[data-role=entries-shown]", panel);
    var words = L.interp(T.entries_shown, { shown: c.entries.length, total: c.entries_total });
    if (c.entries_total > c.entries.length) {
      if (!shown) {
        shown = L.el("p", { class: "muted", "data-role": "entries-shown" }, [words]);
        var scroll = $(".scroll", panel);
        if (scroll) panel.insertBefore(shown, scroll);
      } else if (shown.firstChild && shown.firstChild.nodeType === 3) shown.firstChild.nodeValue = words + " ";
      shown.hidden = false;
    } else if (shown) shown.hidden = true;
  }

  /* --- seating ------------------------------------------------------------------------------------ */

  function tabletLink(table, label) {
    var a = fromTemplate("tablet-link", table.id);
    if (a) a.textContent = label;
    return a || L.el("span", { text: label });
  }

  function tableMark(table) {
    if (table.status === "broken") return L.el("span", { class: "pill", text: T.table_status.broken || table.status });
    if (table.hand_in_progress) return L.el("span", { class: "pill ok", text: T.hand });
    return null;
  }

  function renderTables(tables) {
    var compact = $("[data-role=compact-tables]");
    if (compact) {
      var lines = {};
      $$("li[data-table]", compact).forEach(function (li) { lines[li.getAttribute("data-table")] = li; });
      arrange(compact, tables.map(function (t) {
        var li = lines[String(t.number)] || L.el("li", { "data-table": t.number });
        redraw(li, [t.players, t.status, t.hand_in_progress].join("|"), function (node) {
          node.appendChild(tabletLink(t, L.interp(T.table, { number: t.number })));
          node.appendChild(document.createTextNode(" "));
          node.appendChild(L.el("span", { class: "muted", text: T.players[String(t.players)] || String(t.players) }));
          var mark = tableMark(t);
          if (mark) { node.appendChild(document.createTextNode(" ")); node.appendChild(mark); }
        });
        return li;
      }));
      return;
    }
    var grid = $("[data-role=tables]");
    if (!grid || !tables.length || tables.some(function (t) { return t.players && !t.seats.length; })) return;
    var cards = {};
    $$(".tbl[data-table]", grid).forEach(function (n) { cards[n.getAttribute("data-table")] = n; });
    arrange(grid, tables.map(function (t) {
      var card = cards[String(t.number)] || L.el("div", { class: "tbl", "data-table": t.number });
      redraw(card, JSON.stringify([t.status, t.hand_in_progress, t.button_seat, t.seats]), function (node) {
        var mark = tableMark(t);
        node.appendChild(L.el("h3", null, [
          L.el("span", { text: L.interp(T.table, { number: t.number }) }),
          L.el("span", null, [mark, mark ? " " : null, tabletLink(t, T.tablet)]),
        ]));
        node.appendChild(L.el("ol", null, t.seats.map(function (s) {
          var parts = s.name ? [s.name + " ", L.el("span", { class: "muted", text: String(s.chips) })] : [L.el("span", { class: "muted", text: T.open })];
          if (t.button_seat === s.number) parts.push(" ", L.el("span", { class: "mark btn-mark", text: "D" }));
          return L.el("li", { value: s.number }, parts);
        })));
      });
      return card;
    }));
  }

  function moveText(m, template) {
    return L.interp(template, { name: m.name, from: dash(m.from_table), fseat: dash(m.from_seat), to: m.to_table, tseat: m.to_seat, reason: T.move_reason[m.reason] || m.reason });
  }

  function renderMoves(moves) {
    var list = $("ul[data-role=moves]");
    if (!list && moves.length) {
      // No move when the page was drawn: the heading and the list go above the tables.
      var compact = $("[data-role=compact-tables]");
      var before = compact ? compact.previousElementSibling : $("[data-role=tables]");
      var tpl = live && $('template[data-template="moves"]', live);
      if (!tpl || !before) return;
      Array.prototype.forEach.call(tpl.content.children, function (n) { before.parentNode.insertBefore(n.cloneNode(true), before); });
      list = $("ul[data-role=moves]");
    }
    if (!list) return;
    list.hidden = !moves.length;
    var heading = list.previousElementSibling;
    if (heading && heading.tagName === "H3") heading.hidden = !moves.length;
    redraw(list, JSON.stringify(moves), function (node) {
      moves.forEach(function (m) {
        node.appendChild(L.el("li", null, [moveText(m, T.move) + " ", L.el("span", { class: "pill warn", text: T.move_status[m.status] || m.status })]));
      });
    });
  }

  function renderSuggestions(s, skipped) {
    var list = $("ul[data-role=suggestions]");
    if (!list || !s.review) return;
    var existing = {};
    $$("li[data-key]", list).forEach(function (li) { existing[li.getAttribute("data-key")] = li; });
    var rows = [];
    s.moves.forEach(function (m) {
      var li = existing[m.key];
      if (!li) {
        li = fromTemplate("suggestion");
        if (!li) return;
        li.setAttribute("data-key", m.key);
        li.setAttribute("data-entry", m.entry_id);
        $$("input[name=key]", li).forEach(function (input) { input.value = m.key; });
        var skip = skipped[m.key];
        if (skip) {
          li.classList.add("muted");
          li.setAttribute("data-skipped", "true");
          var form = $("form[data-skip]", li);
          if (form) form.remove();
        }
        setText($("[data-slot=text]", li), (skip ? T.skipped + " " : "") + moveText(m, T.suggestion));
      }
      rows.push(li);
    });
    // The ones still to decide first, as the page lists them.
    rows.sort(function (a, b) { return (a.hasAttribute("data-skipped") ? 1 : 0) - (b.hasAttribute("data-skipped") ? 1 : 0); });
    if (!rows.length) rows = [$("li:not([data-key])", list) || L.el("li", { class: "muted", text: T.balanced })];
    arrange(list, rows, busy);
  }

  /* --- payouts, hands, devices, audit -------------------------------------------------------------- */

  function renderPayouts(c) {
    setText($("[data-role=prize-pool]"), String(c.prize_pool));
    var body = $("[data-role=payout-rows]");
    if (!body) return;
    redraw(body, JSON.stringify(c.payouts), function (node) {
      c.payouts.forEach(function (amount, i) {
        node.appendChild(L.el("tr", null, [L.el("td", { text: String(i + 1) }), L.el("td", { class: "num", text: String(amount) })]));
      });
    });
  }

  function renderHands(hands) {
    var body = $("#hands tbody");
    if (!body) return;
    redraw(body, JSON.stringify(hands), function (node) {
      if (!hands.length) node.appendChild(L.el("tr", null, [L.el("td", { colspan: 4, class: "muted", text: T.no_hands })]));
      hands.forEach(function (h) {
        var link = h.status === "running" ? L.el("span", { class: "muted", text: T.seed_secret }) : fromTemplate("hand-link", h.id);
        if (link && h.status !== "running") link.textContent = T.history;
        node.appendChild(L.el("tr", null, [
          L.el("td", { text: h.label }),
          L.el("td", { text: T.hand_status[h.status] || h.status }),
          L.el("td", null, [L.el("code", { title: h.seed_commitment, text: text(h.seed_commitment).slice(0, 12) + "…" })]),
          L.el("td", null, [link]),
        ]));
      });
    });
  }

  function renderDevices(data) {
    var panel = $("#devices");
    setText(panel && $("[data-role=floor-pin-state]", panel), data.console.floor_pin_set ? T.floor_pin_set : T.floor_pin_off);
    var body = panel && $("tbody", panel);
    if (!body || live.getAttribute("data-device-query")) return;
    var existing = {};
    $$("tr[data-device]", body).forEach(function (tr) { existing[tr.getAttribute("data-device")] = tr; });
    var rows = data.devices.map(function (d) {
      var tr = existing[String(d.id)];
      if (!tr) tr = L.el("tr", { "data-device": d.id }, [L.el("td", { text: d.label }), L.el("td"), L.el("td"), L.el("td")]);
      var cells = tr.children;
      setText(cells[1], d.paired);
      setText(cells[2], d.last_seen || "–");
      var language = $("[data-role=device-language]", cells[0]);
      if (!d.active && language && !busy(language)) language.remove();
      var revoke = $("form", cells[3]);
      if (d.active && !revoke) {
        var form = fromTemplate("revoke", d.id);
        if (form) { while (cells[3].firstChild) cells[3].removeChild(cells[3].firstChild); cells[3].appendChild(form); }
      } else if (!d.active && !$(".pill", cells[3])) {
        while (cells[3].firstChild) cells[3].removeChild(cells[3].firstChild);
        cells[3].appendChild(L.el("span", { class: "pill bad", text: T.revoked }));
      }
      return tr;
    });
    if (!rows.length) rows = [$("tr:not([data-device])", body) || L.el("tr", null, [L.el("td", { colspan: 4, class: "muted", text: T.no_devices })])];
    arrange(body, rows, busy);
    var shown = $("[data-role=devices-shown]", panel);
    if (shown) setText(shown, L.interp(T.devices_shown, { shown: data.devices.length, total: data.devices_total }));
  }

  function renderAudit(audit) {
    var body = $("#audit tbody");
    if (!body) return;
    redraw(body, JSON.stringify(audit), function (node) {
      if (!audit.length) node.appendChild(L.el("tr", null, [L.el("td", { colspan: 5, class: "muted", text: T.no_audit })]));
      audit.forEach(function (a) {
        node.appendChild(L.el("tr", null, [a.at, a.who, a.action, a.target, a.reason].map(function (v) { return L.el("td", { text: text(v) }); })));
      });
    });
  }

  function renderAnnouncement(textNow) {
    var input = $("form[action$='/announce/'] input[name=text]");
    // Only while the director has not started to change it.
    if (!input || document.activeElement === input || input.value !== input.defaultValue) return;
    input.defaultValue = textNow || "";
    input.value = input.defaultValue;
  }

  /* --- the snapshot ------------------------------------------------------------------------------ */

  /* The all-ins panel (its equities are worked out per panel, not in the shared snapshot): fetched
   * again, alone, when the snapshot says a run-out moved on; never while the director is in it. */
  var allIns = { loading: false, wanted: null };
  function renderAllIns(signature) {
    var panel = document.getElementById("all-ins");
    if (!panel || !signature) return;
    allIns.wanted = JSON.stringify(signature);
    if (allIns.loading || panel.getAttribute("data-all-ins") === allIns.wanted) return;
    if (panel.contains(document.activeElement)) return;
    var url = live && live.getAttribute("data-all-ins-url");
    if (!url) return;
    allIns.loading = true;
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        allIns.loading = false;
        var current = document.getElementById("all-ins");
        if (!html || !current || current.contains(document.activeElement)) return;
        var holder = document.createElement("div");
        holder.innerHTML = html; // the server's own template: every name in it is escaped by Django
        var fresh = holder.querySelector("#all-ins");
        if (!fresh) return;
        current.replaceWith(fresh);
        if (fresh.getAttribute("data-all-ins") !== allIns.wanted) renderAllIns(JSON.parse(allIns.wanted));
      })
      .catch(function () { allIns.loading = false; });
  }

  function render(data, skipped) {
    var c = data.console;
    var parts = [
      function () { setText($("[data-live-panel=status]"), T.status[data.tournament.status] || data.tournament.status); },
      function () { renderFloor(data.floor_calls); },
      function () { renderClockControls(c); },
      function () { renderEntries(c); },
      function () { renderSuggestions(c.suggestions, skipped); },
      function () { renderMoves(c.moves); },
      function () { renderTables(data.tables); },
      function () { renderPayouts(c); },
      function () { renderHands(c.hands); },
      function () { renderDevices(data); },
      function () { renderAudit(c.audit); },
      function () { renderAnnouncement(data.announcement); },
      function () { renderAllIns(c.all_ins); },
    ];
    // One panel's trouble does not keep the others from updating.
    parts.forEach(function (part) { try { part(); } catch (e) { if (window.console) window.console.error(e); } });
  }

  /* Put the focus and the caret back where they were if a redraw moved the focused element. */
  function keepingFocus(fn) {
    var active = document.activeElement, start = null, end = null;
    try { start = active.selectionStart; end = active.selectionEnd; } catch (e) { /* not a text field */ }
    fn();
    if (active && active !== document.body && active.isConnected && document.activeElement !== active) {
      active.focus({ preventScroll: true });
      try { if (start !== null) active.setSelectionRange(start, end); } catch (e) { /* ignore */ }
    }
  }

  function showConnection(state) {
    var banner = $("[data-role=console-offline]");
    var lost = state === "offline";
    document.documentElement.classList.toggle("console-stale", lost);
    if (banner) banner.hidden = !lost;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = $("[data-clock]");
    live = document.getElementById("console-live");
    if (!root || !root.clockView) return;
    var labels = document.getElementById("console-labels");
    T = labels ? JSON.parse(labels.textContent) : null;
    var pageVersion = live ? Number(live.getAttribute("data-version")) : Infinity;
    var skipped = {};
    $$("ul[data-role=suggestions] li[data-skipped][data-key]").forEach(function (li) { skipped[li.getAttribute("data-key")] = true; });
    var socket = root.clockView.socket;
    var original = socket.handlers.snapshot, originalStatus = socket.handlers.status;
    socket.handlers.status = function (state) {
      if (originalStatus) originalStatus(state);
      showConnection(state);
    };
    socket.handlers.snapshot = function (data, msg) {
      original(data, msg);
      showConnection("online");
      // Each clock button posts the clock version the director is looking at: a repeated or stale
      // post changes nothing and says the clock has already moved.
      if (T && data.console && msg.version >= pageVersion) {
        keepingFocus(function () { render(data, skipped); });
        live.setAttribute("data-shown-version", String(msg.version));
      }
      var version = data && data.clock && data.clock.clock_version;
      if (typeof version === "number") {
        $$("input[data-clock-version]").forEach(function (input) { input.value = String(version); });
      }
    };
  });
})();
