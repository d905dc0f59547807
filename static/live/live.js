/* One live socket per screen: versioned snapshots, reconnect with backoff, refresh after a gap.
 *
 * The server sends {type: "snapshot", version, server_time, data}. A snapshot whose version is not
 * newer than the one shown is ignored, so duplicated or reordered messages never show an older
 * state. After a reconnect, a wake from sleep or a missed heartbeat the client asks for a fresh
 * snapshot. Close codes 4001/4003/4004/4010 mean "not allowed / gone / revoked": no reconnecting.
 */
(function () {
  "use strict";
  var FINAL_CODES = { 4001: "unauthorized", 4003: "unauthorized", 4004: "gone", 4010: "revoked" };

  function LiveSocket(path, handlers) {
    this.path = path;
    this.handlers = handlers || {};
    this.version = -1;
    this.offset = 0; // server time minus local time, in ms
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.lastMessageAt = 0;
    this.beatMs = this.handlers.beatMs || 0; // read by url(), so before the first connect
    this.connect();
    var self = this;
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) self.refresh();
    });
    window.addEventListener("online", function () {
      if (self.ws && self.ws.readyState === 1) { self.status("online"); self.refresh(); }
      else self.reconnectNow();
    });
    // The device lost its network (Wi-Fi off, cable out): say so at once, before any timeout.
    window.addEventListener("offline", function () { self.status("offline"); });
    // A screen that must notice a dead server quickly (the dealer's tablet) asks the server for a
    // heartbeat every ``handlers.beatMs`` (anything the server sends counts) and calls the connection
    // lost when nothing came for ``beatMs + answerMs``. If the heartbeat is late it pings, so a server
    // that sends none (a rolling upgrade) still answers in time. Other screens ping every ``pingMs``.
    if (this.beatMs) {
      this.watch = setInterval(function () { self.checkAlive(); }, 250);
    } else {
      this.pingMs = this.handlers.pingMs || 15000;
      this.heartbeat = setInterval(function () { self.beat(); }, this.pingMs);
    }
  }

  LiveSocket.prototype.checkAlive = function () {
    if (this.stopped || !this.ws || this.ws.readyState !== 1) return;
    var silent = Date.now() - this.lastMessageAt;
    if (silent > this.beatMs + this.handlers.answerMs) {
      this.status("offline");
      try { this.ws.close(); } catch (e) { /* ignore */ }
    } else if (silent > this.beatMs + this.handlers.answerMs / 2 && !(this.pingSentAt > this.lastMessageAt)) {
      this.send({ type: "ping" });
      this.pingSentAt = Date.now();
    }
  };

  LiveSocket.prototype.url = function () {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var beat = this.beatMs ? (this.path.indexOf("?") < 0 ? "?" : "&") + "beat=" + this.beatMs : "";
    return scheme + location.host + this.path + beat;
  };

  LiveSocket.prototype.connect = function () {
    if (this.stopped) return;
    var self = this;
    var ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.scheduleReconnect(); return; }
    this.ws = ws;
    ws.onopen = function () { self.attempt = 0; self.lastMessageAt = Date.now(); self.status("online"); };
    ws.onmessage = function (event) {
      self.lastMessageAt = Date.now();
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      self.receive(msg);
    };
    ws.onclose = function (event) {
      if (self.ws !== ws) return;
      self.ws = null;
      var reason = FINAL_CODES[event.code];
      if (reason) {
        self.stop(reason);
        return;
      }
      self.status("offline");
      self.scheduleReconnect();
    };
  };

  LiveSocket.prototype.receive = function (msg) {
    if (msg.type === "snapshot") {
      if (typeof msg.server_time === "number") this.offset = msg.server_time - Date.now();
      var part = this.handlers.parts && this.handlers.parts[msg.kind];
      if (part) {
        // A shared part of the screen (the tablets' view of their tournament): its own versions.
        this.partVersions = this.partVersions || {};
        var seen = this.partVersions[msg.kind];
        if (typeof msg.version !== "number" || (seen !== undefined && msg.version <= seen)) return;
        this.partVersions[msg.kind] = msg.version;
        part(msg.data, msg);
        return;
      }
      if (typeof msg.version !== "number" || msg.version <= this.version) {
        // Already showing this or something newer; a forced refresh of the same version is harmless.
        if (msg.version === this.version && this.handlers.same) this.handlers.same(msg);
        return;
      }
      this.version = msg.version;
      if (this.handlers.snapshot) this.handlers.snapshot(msg.data, msg);
    } else if (msg.type === "pong") {
      if (typeof msg.server_time === "number") this.offset = msg.server_time - Date.now();
    } else if (msg.type === "revoked") {
      this.stop("revoked");
    } else if (this.handlers.message) {
      this.handlers.message(msg);  // the screen's own messages (a tablet's input answers)
    }
  };

  LiveSocket.prototype.send = function (obj) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(obj));
  };

  LiveSocket.prototype.refresh = function () {
    if (this.ws && this.ws.readyState === 1) this.send({ type: "refresh" });
    else this.reconnectNow();
  };

  LiveSocket.prototype.beat = function () {
    if (this.stopped) return;
    if (!this.ws) return;
    if (this.ws.readyState === 1 && Date.now() - this.lastMessageAt > 45000) {
      // No answer to two heartbeats: the connection is dead even if the browser has not noticed.
      try { this.ws.close(); } catch (e) { /* ignore */ }
      return;
    }
    this.send({ type: "ping" });
    if (this.ws.readyState === 1) this.pingSentAt = Date.now();
  };

  LiveSocket.prototype.scheduleReconnect = function () {
    if (this.stopped) return;
    var self = this;
    var delay = Math.min(30000, 500 * Math.pow(2, this.attempt)) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.connect(); }, delay);
  };

  LiveSocket.prototype.reconnectNow = function () {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  };

  LiveSocket.prototype.stop = function (reason) {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.watch);
    if (this.ws) { try { this.ws.close(); } catch (e) { /* ignore */ } }
    this.ws = null;
    this.status(reason);
  };

  LiveSocket.prototype.status = function (state) {
    document.documentElement.setAttribute("data-live", state);
    if (this.handlers.status) this.handlers.status(state);
  };

  LiveSocket.prototype.now = function () { return Date.now() + this.offset; };

  /* Helpers shared by the screens. */
  function fmtNumber(n) {
    if (n === null || n === undefined) return "–";
    return Number(n).toLocaleString(document.documentElement.lang || undefined);
  }
  function fmtClock(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)), ss = String(s).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function interp(text, params) {
    return String(text).replace(/%\((\w+)\)s/g, function (_m, k) { return params[k] === undefined ? "" : params[k]; });
  }
  function labels() {
    var el = document.getElementById("labels");
    return el ? JSON.parse(el.textContent) : {};
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "class") node.className = attrs[k];
        else if (k === "text") node.textContent = attrs[k];
        // Styles through the CSSOM: the Content-Security-Policy refuses style attributes.
        else if (k === "style") Object.keys(attrs[k]).forEach(function (p) { node.style[p] = attrs[k][p]; });
        else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
        else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  window.Live = { LiveSocket: LiveSocket, fmtNumber: fmtNumber, fmtClock: fmtClock, interp: interp, labels: labels, el: el };
})();
