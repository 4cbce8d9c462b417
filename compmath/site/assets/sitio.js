// The pages' small comforts, none needed to read them: the light/dark switch (remembered, the
// system's choice until the reader picks one), the copy buttons of code blocks, the sidebar
// folded on a phone and the scroll cue of wide formulas (marcar.js marks a search's words).
(function () {
  "use strict";
  var raiz = document.documentElement;
  var TEMAS = ["sistema", "claro", "oscuro"];

  function guardar(tema) {
    try {
      if (tema === "sistema") { localStorage.removeItem("compmath-tema"); }
      else { localStorage.setItem("compmath-tema", tema); }
    } catch (e) { /* sin almacenamiento: el tema vale para esta página */ }
  }

  var boton = document.querySelector("button.tema");
  if (boton) {
    var pintar = function () {
      var tema = raiz.dataset.tema || "sistema";
      boton.textContent = "Tema: " + tema;
      boton.title = "Tema de color: pulsa para cambiarlo (sistema, claro, oscuro)";
    };
    boton.hidden = false;
    pintar();
    boton.addEventListener("click", function () {
      var actual = TEMAS.indexOf(raiz.dataset.tema || "sistema");
      var tema = TEMAS[(actual + 1) % TEMAS.length];
      if (tema === "sistema") { delete raiz.dataset.tema; } else { raiz.dataset.tema = tema; }
      guardar(tema);
      pintar();
    });
  }

  // on a phone the sidebar and the outline start folded
  if (window.matchMedia("(max-width: 1099px)").matches) {
    document.querySelectorAll("details.plegable").forEach(function (d) { d.open = false; });
  }

  function copiar(pre, aviso) {
    var texto = pre.querySelector("code") ? pre.querySelector("code").innerText : pre.innerText;
    var hecho = function () { aviso.textContent = "Copiado"; setTimeout(function () { aviso.textContent = "Copiar"; }, 1500); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(texto).then(hecho, function () { aviso.textContent = "No se pudo copiar"; });
    }
  }
  function elemento(tipo, clase, texto) {
    var e = document.createElement(tipo);
    e.className = clase;
    e.textContent = texto;
    return e;
  }
  document.querySelectorAll("main pre").forEach(function (pre) {
    var caja = elemento("div", "con-copia", "");
    pre.parentNode.insertBefore(caja, pre);
    caja.appendChild(pre);
    var b = elemento("button", "copiar", "Copiar");
    b.type = "button";
    b.addEventListener("click", function () { copiar(pre, b); });
    caja.appendChild(b);
  });

  // each section's heading gets its permalink; the outline marks the section being read (the
  // last whose heading is above the middle of the window)
  document.querySelectorAll("main h2[id], main h3[id]").forEach(function (h) {
    var a = elemento("a", "ancla", "#");
    a.href = "#" + h.id;
    a.setAttribute("aria-label", "Enlace a «" + h.textContent.trim() + "»");
    h.append(" ", a);
  });
  var marcas = document.querySelectorAll(".indice a");
  function marcar() {
    var actual = marcas[0];
    marcas.forEach(function (a) {
      if (document.querySelector(a.hash).getBoundingClientRect().top < innerHeight / 2) { actual = a; }
      a.removeAttribute("aria-current");
    });
    actual.setAttribute("aria-current", "location");
  }
  if (marcas.length) { marcar(); addEventListener("scroll", marcar, { passive: true }); }

  // a box that fits is not a keyboard stop; one that scrolls is, and says so
  // a display formula wider than its column is first drawn a little smaller (to 85 %); if it
  // still does not fit, lineas.js (loaded then: a phone's) breaks it into lines; a line that
  // still does not fit is drawn smaller, down to 72 % (still legible on a phone), and scrolls
  // only if even that is too wide
  function encoger(m, caja, minimo) {
    var cabe = caja.clientWidth / caja.scrollWidth;
    if (cabe < 1) { m.style.fontSize = (1.15 * Math.max(minimo, cabe - 0.01)).toFixed(3) + "em"; }
  }
  function medir() {
    var lineas = window.compmathLineas, falta = false;  // lineas.js, loaded when first needed
    document.querySelectorAll(".formula > math").forEach(function (m) {
      var caja = m.parentNode;
      if (lineas) { lineas.restaurar(m); }
      m.style.fontSize = "";
      if (caja.scrollWidth <= caja.clientWidth + 1) { return; }
      encoger(m, caja, 0.85);
      if (caja.scrollWidth <= caja.clientWidth + 1) { return; }
      m.style.fontSize = "";
      if (lineas) { lineas.partir(m, caja.clientWidth - 2); } else { falta = true; }
      encoger(m, caja, 0.72);
    });
    if (falta && !raiz.dataset.lineas) {
      raiz.dataset.lineas = "cargando";
      var guion = document.createElement("script");
      guion.src = document.querySelector('script[src$="sitio.js"]').src.replace("sitio.js", "lineas.js");
      guion.onload = function () { medir(); raiz.dataset.lineas = "listas"; };
      document.body.appendChild(guion);
    }
    document.querySelectorAll(".formula, main pre, .tabla-ancha").forEach(function (caja) {
      var desborda = caja.scrollWidth > caja.clientWidth + 1;
      caja.classList.toggle("desborda", desborda);
      if (caja.classList.contains("formula")) {  // one that scrolls: a named keyboard stop
        if (desborda) {
          caja.setAttribute("tabindex", "0");
          caja.setAttribute("role", "group");
          caja.setAttribute("aria-label", "Fórmula");
        } else { caja.removeAttribute("tabindex"); }
      }
    });
  }
  medir();
  window.addEventListener("resize", medir);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(medir); }

  // ?resaltar=palabras (a search result's link): marcar.js marks them, loaded only then
  if (new URLSearchParams(window.location.search).get("resaltar")) {
    var guion = document.createElement("script");
    guion.src = document.querySelector('script[src$="sitio.js"]').src.replace("sitio.js", "marcar.js");
    document.body.appendChild(guion);
  }
}());
