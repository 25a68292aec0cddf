/// The console's page: HTML, a style sheet and one script, written here and served as they are (no
/// build step, no outside fonts or libraries). The script reads `/console/events` and renders tiles
/// with `textContent` only, so nothing a playlist names can become markup.
public enum ConsolePage {
    public static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>airlab console</title>
        <link rel="stylesheet" href="/console/console.css">
        <script src="/console/console.js" defer></script>
        </head>
        <body>
        <header>
          <h1>airlab console</h1>
          <p id="status" role="status">connecting…</p>
        </header>
        <main>
          <section id="grid" aria-label="Receivers"></section>
          <section id="focus" aria-label="Receiver in focus" hidden>
            <h2 id="focus-name"></h2>
            <p id="focus-state"></p>
            <figure><img id="focus-timeline" alt="The session's timeline"><figcaption>Timeline</figcaption></figure>
            <div id="transition">
              <figure><img id="transition-before" alt="Primary's last picture before the break"><figcaption>last primary frame</figcaption></figure>
              <figure><img id="transition-after" alt="The break's first picture"><figcaption>first ad frame</figcaption></figure>
            </div>
            <div id="return">
              <figure><img id="return-before" alt="The break's last picture"><figcaption>last ad frame</figcaption></figure>
              <figure><img id="return-after" alt="Primary's first picture after the break"><figcaption>first primary frame after</figcaption></figure>
            </div>
            <form id="controls">
              <button type="button" data-command="play">Play</button>
              <button type="button" data-command="pause">Pause</button>
              <label>Seek to <input id="seek-to" type="number" min="0" step="1" value="0" inputmode="numeric"> s</label>
              <button type="button" data-command="seek">Seek</button>
              <button type="button" data-command="stop">Stop</button>
              <button type="button" data-command="pip">PiP on</button>
              <button type="button" data-command="pip-off">PiP off</button>
              <p id="control-result" role="status"></p>
            </form>
            <h3>Events</h3>
            <ol id="focus-log"></ol>
          </section>
        </main>
        </body>
        </html>

        """

    public static let style = """
        :root { color-scheme: light dark; --ad: #c2410c; --ok: #15803d; --warn: #b45309; font-family: system-ui, sans-serif; }
        body { margin: 0; }
        header { display: flex; gap: 1rem; align-items: baseline; padding: .5rem 1rem; flex-wrap: wrap; }
        h1 { font-size: 1.1rem; margin: 0; }
        main { display: flex; flex-wrap: wrap; gap: 1rem; padding: 0 1rem 1rem; }
        #grid { flex: 3 1 20rem; display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .5rem; align-content: start; }
        #focus { flex: 2 1 20rem; }
        .tile { border: 1px solid #8886; border-radius: .4rem; padding: .4rem; font: inherit; text-align: left; background: none; color: inherit; cursor: pointer; }
        .tile:focus-visible, .tile[aria-pressed="true"] { outline: 3px solid #2563eb; }
        .screen { aspect-ratio: 16 / 9; background: #111; color: #ccc; display: grid; place-items: center; font-size: .8rem; position: relative; }
        .tile[data-ad] .screen::after { content: "AD"; position: absolute; top: .2rem; right: .2rem; background: var(--ad); color: white; padding: 0 .3rem; font-weight: bold; }
        .screen img { width: 100%; height: 100%; object-fit: contain; }
        .tile[data-pip] .screen img { width: 45%; height: 45%; position: absolute; right: .3rem; bottom: .3rem; outline: 2px solid white; }
        .name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .profile, .clock { font-size: .8rem; opacity: .8; }
        .state { font-size: .85rem; }
        .tile[data-state="stalled"] .state { color: var(--warn); }
        .tile[data-state="playing-primary"] .state { color: var(--ok); }
        .tile[data-ad] .state { color: var(--ad); }
        .rules { font-size: .75rem; }
        .refusal { font-size: .75rem; color: var(--ad); }
        .figures { font-size: .75rem; opacity: .8; }
        .rules span { border: 1px solid currentColor; border-radius: .2rem; padding: 0 .2rem; margin-right: .2rem; }
        #focus img { max-width: 100%; background: white; }
        /* Sizes fixed before the pictures load, so that nothing below them (the controls) moves when they do. */
        #focus-timeline { width: 100%; height: 5rem; object-fit: contain; }
        #transition, #return { display: flex; gap: .5rem; }
        #transition figure, #return figure { flex: 1; margin: 0; }
        #transition img, #return img { width: 100%; aspect-ratio: 16 / 9; object-fit: contain; background: #111; }
        #focus-log { font-size: .8rem; max-height: 20rem; overflow: auto; }
        #control-result { min-height: 1.2em; }
        @media (max-width: 40rem) { #grid { grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); } }

        """
}
