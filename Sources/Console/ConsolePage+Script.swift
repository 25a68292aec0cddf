extension ConsolePage {
    /// The page's one script. Tiles come from the server-sent events: a `snapshot` of every tile on
    /// connecting, then `tiles` with those that changed. Between events the clock moves positions on
    /// locally; nothing polls the receivers.
    public static let script = #"""
        "use strict";
        const grid = document.getElementById("grid");
        const status = document.getElementById("status");
        const focusPane = document.getElementById("focus");
        const entries = new Map();
        let control = false;
        // False on a console that cannot make pictures (airlab console, of receivers on other hosts).
        let pictures = true;
        let focused = null;
        let focusRefresh = 0;

        function clock(seconds) {
          if (seconds == null || !isFinite(seconds)) return "–";
          const s = Math.max(0, Math.floor(seconds));
          return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
        }

        function elapsed(entry) {
          return (performance.now() - entry.at) / 1000 * entry.tile.timeScale;
        }

        function position(entry) {
          const t = entry.tile;
          const moving = t.state === "playing-primary" ? t.rate : 0;
          const p = t.position + elapsed(entry) * moving;
          return t.duration == null ? p : Math.min(p, t.duration);
        }

        function describe(entry) {
          const t = entry.tile;
          const ad = t.interstitial;
          switch (t.state) {
            case "idle": return "idle";
            case "loading": return "loading";
            case "playing-primary": return "playing primary";
            case "transitioning": return ad ? "switching to ad " + ad.eventID : "switching to primary";
            case "playing-interstitial": {
              let text = "playing ad " + ad.eventID;
              if (ad.assetIndex != null) text += ", asset " + (ad.assetIndex + 1) + (ad.assetCount ? " of " + ad.assetCount : "");
              return text;
            }
            case "stalled": return "stalled: " + (t.stall ? t.stall.reason + " (" + t.stall.explanation + ")" : "waiting for media");
            case "paused": return ad ? "paused in ad " + ad.eventID : "paused";
            case "ended": return "ended";
            case "failed": return "failed";
          }
          return t.state;
        }

        function skipCountdown(entry) {
          const ad = entry.tile.interstitial;
          if (!ad || ad.skipOffset == null || ad.assetStartedAt == null) return "";
          const into = entry.tile.time - ad.assetStartedAt + (entry.tile.state === "playing-interstitial" ? elapsed(entry) : 0);
          const left = ad.skipOffset - into;
          return left > 0 ? "skip in " + Math.ceil(left) + " s" : "skip now";
        }

        function element(entry) {
          const tile = document.createElement("button");
          tile.type = "button";
          tile.className = "tile";
          tile.setAttribute("aria-pressed", "false");
          for (const part of ["screen", "name", "profile", "state", "clock", "rules", "figures", "refusal"]) {
            const child = document.createElement("div");
            child.className = part;
            tile.appendChild(child);
          }
          const picture = document.createElement("img");
          picture.alt = "";
          picture.hidden = true;
          const none = document.createElement("span");
          none.textContent = pictures ? "no picture" : "no picture on this console";
          picture.addEventListener("load", () => { picture.hidden = false; none.hidden = true; entry.el.dataset.picture = "shown"; });
          picture.addEventListener("error", () => { picture.hidden = true; none.hidden = false; entry.el.dataset.picture = "none"; });
          tile.querySelector(".screen").append(picture, none);
          tile.addEventListener("click", () => focusOn(entry.tile.index));
          if (visibility) visibility.observe(tile);
          return tile;
        }

        // Pictures are asked for only for the tiles on screen, about once a second (the tile in focus
        // more often); the server makes at most one a second per receiver and caches them per segment.
        const visible = new Set();
        const visibility = "IntersectionObserver" in window ? new IntersectionObserver((changes) => {
          for (const change of changes) {
            const index = Number(change.target.dataset.index);
            if (change.isIntersecting) visible.add(index); else visible.delete(index);
          }
        }) : null;

        function refreshPicture(entry) {
          const t = entry.tile;
          if (!pictures || !t.session || t.state === "idle" || t.state === "ended" || t.state === "failed") return;
          const now = performance.now();
          if (now - (entry.pictureAt || -Infinity) < (t.index === focused ? 250 : 1000)) return;
          entry.pictureAt = now;
          const img = entry.el.querySelector(".screen img");
          img.src = "/console/frames/" + t.index + ".jpg?" + (t.index === focused ? "focus&" : "") + "t=" + Date.now();
        }

        function render(entry) {
          const t = entry.tile;
          const el = entry.el;
          el.dataset.index = t.index;
          el.dataset.state = t.state;
          el.dataset.trail = t.trail.join(" ");
          el.toggleAttribute("data-ad", !!t.interstitial && (t.state === "playing-interstitial" || t.state === "transitioning" || t.state === "paused" || t.state === "stalled"));
          el.toggleAttribute("data-pip", t.pictureInPicture);
          el.querySelector(".name").textContent = t.receiver;
          el.querySelector(".profile").textContent = t.profile;
          el.querySelector(".state").textContent = describe(entry);
          tick(entry);
          const rules = el.querySelector(".rules");
          rules.replaceChildren();
          for (const name of (t.interstitial ? t.interstitial.restrictions : [])) {
            const chip = document.createElement("span");
            chip.textContent = name;
            rules.appendChild(chip);
          }
          const figures = [];
          if (t.bufferAhead != null) figures.push("buffer " + t.bufferAhead.toFixed(1) + " s");
          if (t.group) figures.push("group " + t.group + (t.groupSyncError != null ? ", sync " + (t.groupSyncError * 1000).toFixed(0) + " ms" : ""));
          el.querySelector(".figures").textContent = figures.join(" · ");
          el.querySelector(".refusal").textContent = t.lastRefusal ? "refused " + t.lastRefusal.command + ": " + t.lastRefusal.reason : "";
          remember(entry);
        }

        // What the tile has shown, each look once in a row (the last 40): a state and, in an ad, its
        // restrictions. A person scrolling back, or a test, reads it from data-shown.
        function remember(entry) {
          const t = entry.tile;
          let look = t.state + (t.interstitial && t.state !== "playing-primary" ? "[" + t.interstitial.restrictions.join(",") + "]" : "");
          if (t.stall) look += "(" + t.stall.reason + ")";
          if (entry.shown[entry.shown.length - 1] === look) return;
          entry.shown.push(look);
          if (entry.shown.length > 40) entry.shown.shift();
          entry.el.dataset.shown = entry.shown.join(" ");
        }

        // Primary's position and duration; in an ad, the ad's own, with its skip control's countdown.
        function tick(entry) {
          const t = entry.tile;
          const ad = t.interstitial;
          const el = entry.el.querySelector(".clock");
          if (ad && ad.assetStartedAt != null && t.state !== "playing-primary") {
            const into = t.time - ad.assetStartedAt + (t.state === "playing-interstitial" ? elapsed(entry) : 0);
            const countdown = skipCountdown(entry);
            el.textContent = "ad " + clock(ad.assetDuration == null ? into : Math.min(into, ad.assetDuration)) + " / " + clock(ad.assetDuration) + (countdown ? " · " + countdown : "");
          } else {
            el.textContent = clock(position(entry)) + " / " + clock(t.duration);
          }
        }

        function take(tile) {
          let entry = entries.get(tile.index);
          if (!entry) {
            entry = { tile, at: performance.now(), shown: [] };
            // Counted on screen until the observer, which reports every tile once it lays them out, says not.
            visible.add(tile.index);
            entry.el = element(entry);
            entries.set(tile.index, entry);
            grid.appendChild(entry.el);
          }
          entry.tile = tile;
          entry.at = performance.now();
          render(entry);
          // A change (into an ad, back to primary) brings its picture at once, not at the next second.
          if (!visibility || visible.has(tile.index)) refreshPicture(entry);
          if (tile.index === focused) refreshFocus(false);
        }

        function focusOn(index) {
          if (location.hash !== "#" + index) history.replaceState(null, "", "#" + index);
          for (const entry of entries.values()) entry.el.setAttribute("aria-pressed", String(entry.tile.index === index));
          focused = index;
          focusPane.hidden = false;
          document.getElementById("control-result").textContent = "";
          refreshFocus(true);
        }

        // The focus view follows its tile's changes, at most once a second.
        function refreshFocus(now) {
          const entry = entries.get(focused);
          if (!entry) return;
          document.getElementById("focus-name").textContent = entry.tile.receiver + " (" + entry.tile.profile + ")";
          document.getElementById("focus-state").textContent = describe(entry);
          const wait = focusRefresh - performance.now();
          if (!now && wait > 0) return;
          focusRefresh = performance.now() + 1000;
          const base = "/console/receivers/" + focused;
          if (entry.tile.session) {
            document.getElementById("focus-timeline").src = base + "/timeline.svg?v=" + entry.tile.version;
            if (pictures) for (const side of ["before", "after"]) {
              document.getElementById("transition-" + side).src = base + "/" + side + ".jpg?v=" + entry.tile.version;
              document.getElementById("return-" + side).src = base + "/return-" + side + ".jpg?v=" + entry.tile.version;
            }
          }
          fetch(base + "/log").then((r) => r.ok ? r.json() : []).then((lines) => {
            const list = document.getElementById("focus-log");
            list.replaceChildren();
            for (const line of lines.slice().reverse()) {
              const item = document.createElement("li");
              item.textContent = line.time.toFixed(1) + " s  " + line.kind + " (" + line.state + " at " + line.position.toFixed(1) + "): " + line.reason;
              list.appendChild(item);
            }
          }).catch(() => {});
        }

        // The focus view's pictures are not there until the receiver has a session, or a switch into a
        // break while a page watched: until then they are hidden, not drawn broken.
        for (const id of ["focus-timeline", "transition-before", "transition-after", "return-before", "return-after"]) {
          const img = document.getElementById(id);
          img.addEventListener("error", () => { img.hidden = true; });
          img.addEventListener("load", () => { img.hidden = false; });
        }

        document.getElementById("controls").addEventListener("click", (event) => {
          const command = event.target.dataset && event.target.dataset.command;
          if (!command || focused == null) return;
          let query = "?command=" + command;
          if (command === "seek") query += "&position=" + encodeURIComponent(document.getElementById("seek-to").value);
          const result = document.getElementById("control-result");
          fetch("/console/receivers/" + focused + "/control" + query, { method: "POST" })
            .then((r) => r.text().then((text) => { result.dataset.status = r.status; result.textContent = r.ok ? command + ": done" : r.status + " " + text.trim(); }))
            .catch((error) => { result.textContent = String(error); });
        });

        function setControl(enabled) {
          control = enabled;
          for (const button of document.querySelectorAll("#controls button")) {
            button.disabled = !enabled;
            button.title = enabled ? "" : "read-only: started without --console-control";
          }
        }

        const events = new EventSource("/console/events");
        events.addEventListener("snapshot", (event) => {
          const snapshot = JSON.parse(event.data);
          setControl(snapshot.control);
          pictures = snapshot.pictures !== false;
          if (!pictures) for (const span of document.querySelectorAll(".screen span")) span.textContent = "no picture on this console";
          for (const tile of snapshot.tiles) take(tile);
          status.textContent = snapshot.tiles.length + " receivers, live";
          document.body.dataset.live = "";
          // A link to one receiver (console#3) opens with it in focus.
          const linked = /^#(\d+)$/.exec(location.hash);
          if (linked && focused == null && entries.has(Number(linked[1]))) focusOn(Number(linked[1]));
        });
        events.addEventListener("tiles", (event) => {
          for (const tile of JSON.parse(event.data)) take(tile);
          if (new URLSearchParams(location.search).has("until-ended") && [...entries.values()].every((e) => e.tile.state === "ended" || e.tile.state === "failed")) {
            events.close();
            status.textContent = "every session ended";
          }
        });
        events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
        setInterval(() => {
          for (const entry of entries.values()) {
            if (entry.tile.rate > 0) tick(entry);
            if (!visibility || visible.has(entry.tile.index)) refreshPicture(entry);
          }
        }, 1000);
        setInterval(() => { const entry = entries.get(focused); if (entry) refreshPicture(entry); }, 250);
        """#
}
