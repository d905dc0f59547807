/* The clock screen: counts down locally from "level ends at" and the server's time, rolls into the
 * next level by itself, warns in the last minute, beeps and shows the new blinds at a level change,
 * turns red while paused, has its own look on a break, hand-for-hand, at the final table and at the
 * end. Everything on it is computed from the versioned snapshot (clock.html, clock_panel.html).
 * Texts that do not fit their box are made smaller until they do (data-fit): any value fits any
 * screen from 1280x720 to 3840x2160. */
(function () {
  "use strict";
  var L = window.Live;
  var ROTATE_MS = 12000;
  var CHART_MS = 10000; // each page of the seating chart stays this long

  /* Where the clock is at server instant nowMs: walks a running clock through elapsed levels. */
  function clockAt(data, nowMs) {
    var sch = data.schedule, c = data.clock;
    if (!sch.length) return null;
    var last = sch.length - 1;
    var idx = Math.min(c.level_index, last);
    if (c.running && c.level_ends_at) {
      var ends = c.level_ends_at;
      while (nowMs >= ends && idx < last) { idx += 1; ends += sch[idx].seconds * 1000; }
      return { index: idx, remaining: Math.max(0, (ends - nowMs) / 1000), running: true, paused: false, started: true };
    }
    return { index: idx, remaining: c.remaining || 0, running: false, paused: !!c.paused, started: !!c.started };
  }

  function secondsToBreak(sch, idx, remaining) {
    var total = remaining;
    for (var i = idx + 1; i < sch.length; i++) {
      if (sch[i].is_break) return total;
      total += sch[i].seconds;
    }
    return null;
  }

  /* Seconds until the end of schedule period lastIndex, from period idx with remaining left. */
  function secondsUntilEndOf(sch, idx, remaining, lastIndex) {
    if (lastIndex === null || lastIndex === undefined || idx > lastIndex) return null;
    var total = remaining;
    for (var i = idx + 1; i <= Math.min(lastIndex, sch.length - 1); i++) total += sch[i].seconds;
    return total;
  }

  function stakes(level, betting) {
    if (!level || level.is_break) return "";
    if (betting === "fixed_limit" && level.small_bet) {
      return L.fmtNumber(level.small_bet) + " / " + L.fmtNumber(level.big_bet);
    }
    return L.fmtNumber(level.small_blind) + " / " + L.fmtNumber(level.big_blind);
  }

  function anteText(level, betting, T) {
    if (!level || level.is_break) return "";
    var parts = [];
    if (betting === "fixed_limit" && level.small_bet) {
      parts.push(T.blinds + " " + L.fmtNumber(level.small_blind) + " / " + L.fmtNumber(level.big_blind));
    }
    if (level.ante && level.ante_kind === "per_player") parts.push(T.ante + " " + L.fmtNumber(level.ante));
    if (level.ante && level.ante_kind === "big_blind") parts.push(T.bb_ante + " " + L.fmtNumber(level.ante));
    return parts.join(" · ");
  }

  function levelName(level, T) {
    return level.is_break ? T["break"] : T.level + " " + level.number;
  }

  function timeOfDay(ms) {
    try {
      return new Intl.DateTimeFormat(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
    } catch (e) {
      var d = new Date(ms);
      return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
    }
  }

  /* Make a one-line box's text smaller until it fits its box (never larger than its CSS size). */
  function fit(node) {
    if (!node || !node.isConnected || node.offsetWidth === 0) return;
    node.style.fontSize = "";
    node.fitWidth = node.clientWidth;
    for (var i = 0; i < 6; i++) {
      var sw = node.scrollWidth, cw = node.clientWidth, sh = node.scrollHeight, ch = node.clientHeight;
      var over = Math.max(sw / Math.max(cw, 1), ch > 0 ? sh / ch : 1);
      if (over <= 1.005) return;
      var size = parseFloat(getComputedStyle(node).fontSize);
      node.style.fontSize = Math.max(5, Math.floor(size / over * 0.97)) + "px";
    }
  }

  var audio = null;
  function audioContext() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
    return audio;
  }
  function beep(times, pitch) {
    var ctx = audioContext();
    var count = Number(document.documentElement.getAttribute("data-beeps") || 0) + 1;
    document.documentElement.setAttribute("data-beeps", String(count));
    if (!ctx) return; // no sound device: the alert on screen still shows the change
    try {
      for (var k = 0; k < (times || 3); k++) {
        var at = k * 0.35, osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = "sine"; osc.frequency.value = pitch || 880;
        gain.gain.setValueAtTime(0.0001, ctx.currentTime + at);
        gain.gain.exponentialRampToValueAtTime(0.6, ctx.currentTime + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + 0.3);
        osc.connect(gain); gain.connect(ctx.destination);
        osc.start(ctx.currentTime + at); osc.stop(ctx.currentTime + at + 0.32);
      }
    } catch (e) { /* ignore */ }
  }
  function unlockAudio() {
    var ctx = audioContext();
    document.querySelectorAll("[data-role=sound-hint]").forEach(function (hint) { hint.hidden = true; });
    if (ctx) document.documentElement.setAttribute("data-sound", ctx.state);
  }

  function ClockView(root, opts) {
    this.root = root;
    this.T = L.labels();
    this.data = null;
    this.shownIndex = null;
    this.compact = !!(opts && opts.compact);
    this.kiosk = root.hasAttribute("data-kiosk");
    this.panels = (root.getAttribute("data-panels") || "").split(",").filter(Boolean);
    this.panelAt = 0;
    this.panelShown = null;
    this.lastMinuteBeeped = null;
    var self = this;
    this.socket = new L.LiveSocket(root.getAttribute("data-ws"), {
      snapshot: function (data) { self.update(data); },
      status: function (state) { self.status(state); },
    });
    setInterval(function () { self.tick(); }, 200);
    if (this.panels.length) setInterval(function () { self.rotate(); }, ROTATE_MS);
    window.addEventListener("resize", function () { self.refit(); });
    // A box that gets narrower (a longer text beside it in the same row) fits its text again.
    if (window.ResizeObserver) {
      this.observer = new ResizeObserver(function (entries) {
        entries.forEach(function (e) { if (e.target.clientWidth !== e.target.fitWidth) fit(e.target); });
      });
      root.querySelectorAll("[data-fit]").forEach(function (n) { self.observer.observe(n); });
    }
    if (this.kiosk) {
      // A kiosk screen (a TV box started with --autoplay-policy=no-user-gesture-required) plays
      // sound at once and never asks for a tap.
      unlockAudio();
    } else {
      document.addEventListener("click", unlockAudio, { once: true });
      document.addEventListener("keydown", unlockAudio, { once: true });
      var ctx = null;
      try { ctx = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { ctx = null; }
      if (ctx && ctx.state === "running") { audio = ctx; unlockAudio(); }
    }
  }

  ClockView.prototype.q = function (sel) { return this.root.querySelector(sel); };
  ClockView.prototype.set = function (sel, text) {
    var node = this.q(sel);
    if (node && node.textContent !== text) {
      node.textContent = text;
      this.fitAround(node);
      this.dirty = true;
    }
  };
  /* After a change, any box whose neighbour grew may be too narrow now: fit what overflows. */
  ClockView.prototype.repair = function () {
    this.root.querySelectorAll("[data-fit]").forEach(function (n) {
      if (n.offsetWidth && (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)) fit(n);
    });
  };
  ClockView.prototype.fitAround = function (node) {
    var box = node.hasAttribute("data-fit") ? node : node.closest("[data-fit]");
    if (box && this.root.contains(box)) fit(box);
  };
  ClockView.prototype.refit = function () {
    this.root.querySelectorAll("[data-fit]").forEach(fit);
    this.renderPanel(true);
  };
  ClockView.prototype.show = function (sel, on) {
    var node = this.q(sel);
    if (node && node.hidden === !!on) {
      node.hidden = !on;
      if (on) node.querySelectorAll("[data-fit]").forEach(fit);
    }
  };

  ClockView.prototype.status = function (state) {
    var T = this.T, banner = this.q("[data-role=connection]");
    if (!banner) return;
    var text = state === "offline" ? T.offline : state === "revoked" ? T.revoked : state === "unauthorized" ? T.unauthorized : "";
    banner.textContent = text;
    banner.hidden = !text;
  };

  ClockView.prototype.update = function (data) {
    var first = !this.data;
    this.data = data;
    var t = data.tournament, f = data.field, T = this.T;
    this.set("[data-role=name]", t.name);
    this.set("[data-role=game]", (T["game_" + t.game] || t.game_label) + " · " + (T["betting_" + t.betting] || t.betting_label));
    this.set("[data-role=players]", L.fmtNumber(f.players_left) + " / " + L.fmtNumber(f.entries));
    this.set("[data-role=average]", L.fmtNumber(f.average_stack));
    this.set("[data-role=chips]", L.fmtNumber(f.chips_in_play));
    this.set("[data-role=pool]", f.prize_pool ? L.fmtNumber(f.prize_pool) : "–");
    var flight = data.flight, flightBox = this.q("[data-role=flight-box]");
    if (flightBox) {
      // A flight of a multi-day event: the pool above is the event's; say where the event stands.
      flightBox.hidden = !flight;
      if (flight) {
        this.set("[data-role=flight-label]", L.interp(T.flight_label, { flight: flight.label, event: flight.event.name }));
        this.set("[data-role=flight]", L.interp(T.flight_line, { left: L.fmtNumber(flight.event.players_left), entries: L.fmtNumber(flight.event.entries) }));
      }
    }
    var payouts = this.q("[data-role=payouts]");
    if (payouts) { // the console's compact clock
      payouts.innerHTML = "";
      f.payouts.filter(function (p) { return p.amount > 0; }).slice(0, this.compact ? 5 : 10).forEach(function (p) {
        payouts.appendChild(L.el("li", null, [L.el("span", { class: "place", text: p.place + "." }), L.el("span", { class: "amount", text: L.fmtNumber(p.amount) })]));
      });
    }
    this.set("[data-role=announcement]", data.announcement || "");
    this.show("[data-role=announcement]", !!data.announcement);
    this.set("[data-role=commitment]", t.seed_commitment || "");
    this.show("[data-role=commitment-box]", !!t.seed_commitment);
    var room = data.room || {};
    var hfh = room.hand_for_hand;
    this.show("[data-role=hfh]", !!hfh);
    if (hfh) {
      this.set("[data-role=hfh-round]", L.interp(T.hfh_round, { round: L.fmtNumber(hfh.round) }));
      this.set("[data-role=hfh-taken]", L.interp(T.hfh_taken, { time: L.fmtClock(hfh.seconds_taken) }));
    }
    this.renderFinished(data);
    this.renderChart(data.seating_chart);
    this.root.classList.toggle("hand-for-hand", !!t.hand_for_hand);
    this.root.setAttribute("data-version", String(this.socket.version));
    this.tick();
    this.renderPanel(true);
    if (first) this.refit();
  };

  ClockView.prototype.renderFinished = function (data) {
    var box = this.q("[data-role=finished]");
    if (!box) return;
    var done = data.tournament.status === "finished";
    var results = (data.room && data.room.results) || [];
    if (done) {
      var winner = results.filter(function (r) { return r.place === 1; })[0];
      this.set("[data-role=winner]", winner ? winner.name : "–");
      this.set("[data-role=winner-prize]", winner && winner.prize ? L.fmtNumber(winner.prize) : "");
      var list = this.q("[data-role=results]");
      list.innerHTML = "";
      results.forEach(function (r) {
        list.appendChild(L.el("li", null, [L.el("span", { class: "place", text: r.place + "." }), L.el("span", { class: "who", text: r.name }), L.el("span", { class: "amount", text: L.fmtNumber(r.prize) })]));
      });
    }
    this.show("[data-role=finished]", done);
    if (done) {
      trimList(this.q("[data-role=results]"), box);
      box.querySelectorAll(".result-list span:not(.who)").forEach(function (n) { n.setAttribute("data-fit", ""); fit(n); });
    }
  };

  /* The seating chart, while the director has it on: the snapshot says only that it is on and how
   * big it is; the names come one page at a time from the chart's own address (built once per
   * version on the server), the next page every CHART_MS, round and round. */
  ClockView.prototype.renderChart = function (info) {
    var box = this.q("[data-role=chart]");
    if (!box) return; // the console's compact clock and the festival screen have no chart
    var on = !!info, self = this;
    if (on === !!this.chartOn) return;
    this.chartOn = on;
    box.hidden = !on;
    this.root.classList.toggle("chart-on", on);
    this.root.setAttribute("data-chart", on ? "on" : "off");
    clearInterval(this.chartTimer);
    if (!on) return;
    this.chartPage = 1;
    this.chartPages = info.pages || 1;
    this.fetchChart();
    this.chartTimer = setInterval(function () {
      self.chartPage = self.chartPage >= self.chartPages ? 1 : self.chartPage + 1;
      self.fetchChart();
    }, CHART_MS);
  };
  ClockView.prototype.fetchChart = function () {
    var box = this.q("[data-role=chart]"), self = this, page = this.chartPage;
    var url = box.getAttribute("data-chart-url") + "?page=" + page + "&v=" + this.socket.version;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      if (r.status === 404 && page !== 1) { self.chartPage = 1; self.fetchChart(); return null; } // fewer pages now
      return r.ok ? r.json() : null;
    }).then(function (chart) {
      if (!chart || !self.chartOn) return;
      self.chartPages = chart.pages;
      self.drawChart(chart);
    }).catch(function () { /* offline: the next page is asked for in CHART_MS */ });
  };
  ClockView.prototype.drawChart = function (chart) {
    var T = this.T, list = this.q("[data-role=chart-rows]");
    list.innerHTML = "";
    chart.rows.forEach(function (r) {
      list.appendChild(L.el("li", null, [L.el("span", { class: "who", text: r[0] }), L.el("span", { class: "where", text: r[1] + " · " + r[2] })]));
    });
    this.set("[data-role=chart-page]", T.chart_legend + " · " + L.interp(T.chart_page, { page: chart.page, pages: chart.pages }) + " · " + L.interp(T.chart_players, { players: L.fmtNumber(chart.players) }));
    this.root.setAttribute("data-chart-page", String(chart.page));
  };

  /* The side panels: the director's pick (?panels=...), each shown in turn when it has something. */
  ClockView.prototype.available = function () {
    var data = this.data;
    if (!data) return [];
    var room = data.room || {}, late = data.late_registration || {};
    return this.panels.filter(function (name) {
      if (name === "moves") return (room.recent_moves || []).length > 0;
      if (name === "leaders") return (room.chip_leaders || []).length > 0;
      if (name === "late") return !!late.open && late.until_level > 0;
      return true;
    });
  };
  ClockView.prototype.rotate = function () {
    var list = this.available();
    if (list.length < 2) return;
    this.panelAt = (list.indexOf(this.panelShown) + 1) % list.length;
    this.renderPanel(true);
  };
  ClockView.prototype.renderPanel = function (rebuild) {
    var body = this.q("[data-role=panel-body]");
    if (!body || !this.data) return;
    var list = this.available();
    if (!list.length) return;
    var name = list.indexOf(this.panelShown) >= 0 && !rebuild ? this.panelShown : list[Math.min(this.panelAt, list.length - 1)];
    if (!rebuild && name === this.panelShown) return;
    this.panelShown = name;
    this.root.setAttribute("data-panel", name);
    var T = this.T, data = this.data, self = this;
    var title = { payouts: T.payouts, schedule: T.schedule, moves: T.recent_moves, leaders: T.chip_leaders, late: T.late_reg, time: T.time_of_day }[name];
    this.set("[data-role=panel-title]", title);
    body.innerHTML = "";
    body.className = "panel-body panel-" + name;
    var rows = [];
    if (name === "payouts") {
      var paid = data.field.payouts.filter(function (p) { return p.amount > 0; });
      if (!paid.length) rows.push(L.el("div", { class: "panel-empty", text: T.no_payouts }));
      paid.slice(0, 30).forEach(function (p) {
        rows.push(L.el("li", null, [L.el("span", { class: "place", text: p.place + "." }), L.el("span", { class: "amount", text: L.fmtNumber(p.amount) })]));
      });
    } else if (name === "schedule") {
      var at = clockAt(data, this.socket.now());
      var from = at ? at.index : 0;
      data.schedule.slice(from, from + 12).forEach(function (lv) {
        var label = lv.is_break ? T["break"] : String(lv.number);
        var what = lv.is_break ? "" : stakes(lv, data.tournament.betting) + (lv.ante ? " (" + L.fmtNumber(lv.ante) + ")" : "");
        rows.push(L.el("li", { class: lv.index === from ? "current" : null }, [L.el("span", { class: "place", text: label }), L.el("span", { class: "amount", text: what }), L.el("span", { class: "mins", text: Math.round(lv.seconds / 60) + "′" })]));
      });
    } else if (name === "moves") {
      data.room.recent_moves.forEach(function (m) {
        var line = m.from_table ? L.interp(T.move_line, m) : L.interp(T.seat_line, m);
        rows.push(L.el("li", null, [L.el("span", { class: "who", text: line })]));
      });
    } else if (name === "leaders") {
      data.room.chip_leaders.forEach(function (p, i) {
        rows.push(L.el("li", null, [L.el("span", { class: "place", text: (i + 1) + "." }), L.el("span", { class: "who", text: p.name }), L.el("span", { class: "amount", text: L.fmtNumber(p.chips) })]));
      });
    } else if (name === "late") {
      rows.push(L.el("div", { class: "panel-line", text: L.interp(T.late_reg_open, { level: data.late_registration.until_level }) }));
      rows.push(L.el("div", { class: "panel-big", "data-role": "panel-late", text: "" }));
    } else if (name === "time") {
      rows.push(L.el("div", { class: "panel-huge", "data-role": "panel-tod", text: timeOfDay(this.socket.now()) }));
    }
    var holder = rows.length && rows[0].tagName === "LI" ? L.el("ol", { class: "panel-list" }, rows) : null;
    if (holder) body.appendChild(holder); else rows.forEach(function (r) { body.appendChild(r); });
    this.tickPanel();
    if (holder) trimList(holder, body);
    body.querySelectorAll("li > span:not(.who), .panel-line, .panel-big, .panel-huge").forEach(function (n) { n.setAttribute("data-fit", ""); fit(n); });
    if (holder) trimList(holder, body);
    this.dirty = true;
    void self;
  };
  ClockView.prototype.tickPanel = function () {
    var data = this.data, T = this.T;
    var tod = this.q("[data-role=panel-tod]");
    if (tod) { var text = timeOfDay(this.socket.now()); if (tod.textContent !== text) { tod.textContent = text; fit(tod); } }
    var late = this.q("[data-role=panel-late]");
    if (late && data) { var lt = this.lateText(); if (late.textContent !== lt) { late.textContent = lt; fit(late); } }
    void T;
  };

  /* Late registration: "closes in 1:23:45" while it is open, counted down locally. */
  ClockView.prototype.lateText = function () {
    var data = this.data, T = this.T, late = data.late_registration || {};
    if (!late.until_level) return "";
    if (data.tournament.status === "registering" || data.tournament.status === "planned") return L.interp(T.late_reg_open, { level: late.until_level });
    var at = clockAt(data, this.socket.now());
    var left = at ? secondsUntilEndOf(data.schedule, at.index, at.remaining, late.last_index) : null;
    if (!late.open || left === null) return T.late_reg_closed;
    return L.interp(T.late_reg_closes_in, { time: L.fmtClock(left) });
  };

  ClockView.prototype.tick = function () {
    var data = this.data, T = this.T;
    if (!data) return;
    var at = clockAt(data, this.socket.now());
    this.set("[data-role=tod]", timeOfDay(this.socket.now()));
    if (!at) return;
    var sch = data.schedule, t = data.tournament, betting = t.betting, room = data.room || {};
    var level = sch[at.index], next = sch[at.index + 1];
    if (this.shownIndex !== null && this.shownIndex !== at.index) this.levelChanged(level);
    this.shownIndex = at.index;
    var finished = t.status === "finished";
    var hfh = !!t.hand_for_hand && !finished;
    var registering = !at.started && !finished;
    var paused = at.paused && !hfh && !finished;
    var lastMinute = at.running && !level.is_break && at.remaining <= 60 && at.remaining > 0 && !!next;
    var state = finished ? "finished" : registering ? "registering" : hfh ? "hand-for-hand" : paused ? "paused" : level.is_break ? "break" : room.final_table ? "final-table" : "running";
    this.root.setAttribute("data-level-index", String(at.index));
    this.root.setAttribute("data-state", state);
    this.root.classList.toggle("paused", paused);
    this.root.classList.toggle("not-started", registering);
    this.root.classList.toggle("on-break", !!level.is_break && !finished);
    this.root.classList.toggle("final-table", !!room.final_table && !finished);
    this.root.classList.toggle("finished", finished);
    this.root.classList.toggle("last-minute", lastMinute);
    if (lastMinute && this.lastMinuteBeeped !== at.index) { this.lastMinuteBeeped = at.index; beep(1, 660); }
    this.set("[data-role=level]", levelName(level, T));
    this.set("[data-role=time]", L.fmtClock(at.remaining));
    this.set("[data-role=stakes]", stakes(level, betting));
    this.set("[data-role=ante]", anteText(level, betting, T));
    var stateText = finished ? T.finished : registering ? (t.status === "registering" ? T.registering : T.not_started) : hfh ? T.hand_for_hand : paused ? T.paused : lastMinute ? T.last_minute : room.final_table ? T.final_table : "";
    this.set("[data-role=state]", stateText);
    var nextText = next ? (next.is_break ? T["break"] + " · " + Math.round(next.seconds / 60) + "′" : levelName(next, T) + ": " + stakes(next, betting) + (anteText(next, betting, T) ? " · " + anteText(next, betting, T) : "")) : T.last_level;
    this.set("[data-role=next]", nextText);
    var toBreak = secondsToBreak(sch, at.index, at.remaining);
    this.set("[data-role=to-break]", toBreak === null ? "–" : L.fmtClock(toBreak));
    var late = data.late_registration || {};
    var lateShown = !!late.until_level && (late.open || registering) && !finished;
    this.show("[data-role=late-box]", lateShown);
    if (lateShown) this.set("[data-role=late]", this.lateText());
    var colorUp = this.q("[data-role=color-up]");
    if (colorUp) {
      var chips = level.is_break && level.color_up && level.color_up.length ? level.color_up.map(L.fmtNumber).join(", ") : "";
      this.set("[data-role=color-up]", chips ? L.interp(T.color_up, { chips: chips }) : "");
      var race = this.q("[data-role=chip-race]");
      if (race) {
        var result = data.chip_race;
        this.show("[data-role=chip-race]", !!(chips || result));
        var raceText = result ? L.interp(T.race_result, {
          winners: result.winners.map(function (w) { return w.name + " (" + T.table + " " + w.table + ", " + w.best + ")"; }).join(" · ") || "–",
        }) : T.chip_race;
        if (race.textContent !== raceText) { race.textContent = raceText; fit(race); }
      }
    }
    if (this.chartOn) this.set("[data-role=chart-clock]", levelName(level, T) + " · " + L.fmtClock(at.remaining));
    this.tickPanel();
    this.ticks = (this.ticks || 0) + 1;
    if (this.dirty || this.ticks % 5 === 0) { this.dirty = false; this.repair(); }
  };

  ClockView.prototype.levelChanged = function (level) {
    var root = this.root, T = this.T, self = this;
    beep(3, 880);
    root.classList.remove("level-changed");
    void root.offsetWidth; // restart the animation
    root.classList.add("level-changed");
    if (this.q("[data-role=level-alert]")) {
      this.set("[data-role=level-alert-title]", level.is_break ? T["break"] : T.level_up + " " + levelName(level, T));
      this.set("[data-role=level-alert-stakes]", level.is_break ? Math.round(level.seconds / 60) + "′" : stakes(level, this.data.tournament.betting) + (anteText(level, this.data.tournament.betting, T) ? " · " + anteText(level, this.data.tournament.betting, T) : ""));
      this.show("[data-role=level-alert]", true);
    }
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(function () {
      root.classList.remove("level-changed");
      self.show("[data-role=level-alert]", false);
    }, 6000);
    this.renderPanel(true);
  };

  /* Drop the last items of a list until its box no longer overflows (payouts of 1,500 places). */
  function trimList(list, box) {
    if (!list || !box) return;
    var guard = 0;
    while (list.children.length > 1 && box.scrollHeight > box.clientHeight + 1 && guard++ < 200) {
      list.removeChild(list.lastChild);
    }
  }

  window.ClockView = ClockView;
  window.clockAt = clockAt;
  window.clockFit = fit;
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-clock]").forEach(function (root) {
      root.clockView = new ClockView(root, { compact: root.hasAttribute("data-compact") });
    });
  });
})();
