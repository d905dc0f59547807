/* The clock screen: counts down locally from "level ends at" and the server's time, rolls into the
 * next level by itself, beeps and flashes at a level change, turns red while paused. */
(function () {
  "use strict";
  var L = window.Live;

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
    return { index: idx, remaining: c.remaining, running: false, paused: !!c.paused, started: !!c.started };
  }

  function secondsToBreak(sch, idx, remaining) {
    var total = remaining;
    for (var i = idx + 1; i < sch.length; i++) {
      if (sch[i].is_break) return total;
      total += sch[i].seconds;
    }
    return null;
  }

  function stakes(level, betting, T) {
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

  var audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      [0, 0.35, 0.7].forEach(function (at) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "sine"; osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, audio.currentTime + at);
        gain.gain.exponentialRampToValueAtTime(0.6, audio.currentTime + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + at + 0.3);
        osc.connect(gain); gain.connect(audio.destination);
        osc.start(audio.currentTime + at); osc.stop(audio.currentTime + at + 0.32);
      });
      document.documentElement.setAttribute("data-beeps", String(Number(document.documentElement.getAttribute("data-beeps") || 0) + 1));
    } catch (e) { /* no sound device: the flash still shows the change */ }
  }
  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { /* ignore */ }
    var hint = document.getElementById("sound-hint");
    if (hint) hint.hidden = true;
  }

  function ClockView(root, opts) {
    this.root = root;
    this.T = L.labels();
    this.data = null;
    this.shownIndex = null;
    this.compact = !!(opts && opts.compact);
    var self = this;
    this.socket = new L.LiveSocket(root.getAttribute("data-ws"), {
      snapshot: function (data) { self.update(data); },
      status: function (state) { self.status(state); },
    });
    setInterval(function () { self.tick(); }, 200);
    document.addEventListener("click", unlockAudio, { once: true });
    document.addEventListener("keydown", unlockAudio, { once: true });
  }

  ClockView.prototype.q = function (sel) { return this.root.querySelector(sel); };
  ClockView.prototype.set = function (sel, text) {
    var node = this.q(sel);
    if (node && node.textContent !== text) node.textContent = text;
  };

  ClockView.prototype.status = function (state) {
    var T = this.T, banner = this.q("[data-role=connection]");
    if (!banner) return;
    var text = state === "offline" ? T.offline : state === "revoked" ? T.revoked : state === "unauthorized" ? T.unauthorized : "";
    banner.textContent = text;
    banner.hidden = !text;
  };

  ClockView.prototype.update = function (data) {
    this.data = data;
    var t = data.tournament, f = data.field, T = this.T;
    this.set("[data-role=name]", t.name);
    this.set("[data-role=game]", t.game_label + " · " + t.betting_label);
    this.set("[data-role=players]", L.fmtNumber(f.players_left) + " / " + L.fmtNumber(f.entries));
    this.set("[data-role=average]", L.fmtNumber(f.average_stack));
    this.set("[data-role=pool]", L.fmtNumber(f.prize_pool));
    var payouts = this.q("[data-role=payouts]");
    if (payouts) {
      payouts.innerHTML = "";
      f.payouts.slice(0, this.compact ? 5 : 10).forEach(function (p) {
        payouts.appendChild(L.el("li", null, [L.el("span", { class: "place", text: p.place + "." }), L.el("span", { class: "amount", text: L.fmtNumber(p.amount) })]));
      });
    }
    var banner = this.q("[data-role=announcement]");
    if (banner) { banner.textContent = data.announcement || ""; banner.hidden = !data.announcement; }
    this.set("[data-role=commitment]", t.seed_commitment || "");
    var commit = this.q("[data-role=commitment-box]");
    if (commit) commit.hidden = !t.seed_commitment;
    this.root.classList.toggle("hand-for-hand", !!t.hand_for_hand);
    this.root.setAttribute("data-version", String(this.socket.version));
    this.tick();
  };

  ClockView.prototype.tick = function () {
    var data = this.data, T = this.T;
    if (!data) return;
    var at = clockAt(data, this.socket.now());
    if (!at) return;
    var sch = data.schedule, betting = data.tournament.betting;
    var level = sch[at.index], next = sch[at.index + 1];
    if (this.shownIndex !== null && this.shownIndex !== at.index) this.levelChanged();
    this.shownIndex = at.index;
    this.root.setAttribute("data-level-index", String(at.index));
    this.root.classList.toggle("paused", at.paused);
    this.root.classList.toggle("not-started", !at.started);
    this.root.classList.toggle("on-break", !!level.is_break);
    this.set("[data-role=level]", levelName(level, T));
    this.set("[data-role=time]", L.fmtClock(at.remaining));
    this.set("[data-role=stakes]", stakes(level, betting, T));
    this.set("[data-role=ante]", anteText(level, betting, T));
    this.set("[data-role=state]", at.paused ? T.paused : !at.started ? T.not_started : data.tournament.hand_for_hand ? T.hand_for_hand : "");
    var nextText = next ? (next.is_break ? T["break"] + " · " + Math.round(next.seconds / 60) + "′" : levelName(next, T) + ": " + stakes(next, betting, T) + (anteText(next, betting, T) ? " · " + anteText(next, betting, T) : "")) : T.last_level;
    this.set("[data-role=next]", nextText);
    var toBreak = secondsToBreak(sch, at.index, at.remaining);
    this.set("[data-role=to-break]", toBreak === null ? "–" : L.fmtClock(toBreak));
    var colorUp = this.q("[data-role=color-up]");
    if (colorUp) {
      var chips = level.is_break && level.color_up && level.color_up.length ? level.color_up.map(L.fmtNumber).join(", ") : "";
      colorUp.textContent = chips ? L.interp(T.color_up, { chips: chips }) : "";
      var race = this.q("[data-role=chip-race]");
      if (race) {
        var result = data.chip_race;
        race.hidden = !chips && !result;
        race.textContent = result ? L.interp(T.race_result, {
          winners: result.winners.map(function (w) { return w.name + " (" + T.table + " " + w.table + ", " + w.best + ")"; }).join(" · ") || "–",
        }) : T.chip_race;
      }
    }
  };

  ClockView.prototype.levelChanged = function () {
    var root = this.root;
    beep();
    root.classList.remove("level-changed");
    void root.offsetWidth; // restart the animation
    root.classList.add("level-changed");
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(function () { root.classList.remove("level-changed"); }, 6000);
  };

  window.ClockView = ClockView;
  window.clockAt = clockAt;
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-clock]").forEach(function (root) {
      root.clockView = new ClockView(root, { compact: root.hasAttribute("data-compact") });
    });
  });
})();
