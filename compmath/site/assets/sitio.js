// The pages' small comforts, none needed to read them: the light/dark switch (remembered, the
// system's choice until the reader picks one), the copy buttons of code blocks, the sidebar
// folded on a phone, the scroll cue of wide formulas and the search term highlighted.
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
  document.querySelectorAll("main pre").forEach(function (pre) {
    var caja = document.createElement("div");
    caja.className = "con-copia";
    pre.parentNode.insertBefore(caja, pre);
    caja.appendChild(pre);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copiar";
    b.textContent = "Copiar";
    b.addEventListener("click", function () { copiar(pre, b); });
    caja.appendChild(b);
  });

  // a box that fits is not a keyboard stop; one that scrolls is, and says so
  function medir() {
    document.querySelectorAll(".formula, main pre, .tabla-ancha").forEach(function (caja) {
      var desborda = caja.scrollWidth > caja.clientWidth + 1;
      caja.classList.toggle("desborda", desborda);
      if (caja.classList.contains("formula")) {
        if (desborda) { caja.setAttribute("tabindex", "0"); } else { caja.removeAttribute("tabindex"); }
      }
    });
  }
  medir();
  window.addEventListener("resize", medir);
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(medir); }

  // ?resaltar=palabras: the words a search found, marked in the page's main text
  var buscado = new URLSearchParams(window.location.search).get("resaltar");
  var principal = document.getElementById("contenido");
  if (buscado && principal) {
    var plegar = function (t) { return t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); };
    var palabras = plegar(buscado).split(/[^a-z0-9_]+/).filter(function (p) { return p.length > 1; });
    var primera = null;
    var recorrer = document.createTreeWalker(principal, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentNode.closest("script, math, mark, svg") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodos = [];
    while (recorrer.nextNode()) { nodos.push(recorrer.currentNode); }
    nodos.forEach(function (nodo) {
      var texto = nodo.nodeValue;
      var plegado = plegar(texto);
      if (plegado.length !== texto.length) { return; }
      var cortes = [];
      palabras.forEach(function (p) {
        var i = plegado.indexOf(p);
        while (i >= 0) { cortes.push([i, i + p.length]); i = plegado.indexOf(p, i + p.length); }
      });
      if (!cortes.length) { return; }
      cortes.sort(function (a, b) { return a[0] - b[0]; });
      var trozo = document.createDocumentFragment();
      var hasta = 0;
      cortes.forEach(function (c) {
        if (c[0] < hasta) { return; }
        trozo.appendChild(document.createTextNode(texto.slice(hasta, c[0])));
        var marca = document.createElement("mark");
        marca.textContent = texto.slice(c[0], c[1]);
        trozo.appendChild(marca);
        primera = primera || marca;
        hasta = c[1];
      });
      trozo.appendChild(document.createTextNode(texto.slice(hasta)));
      nodo.parentNode.replaceChild(trozo, nodo);
    });
    if (primera && !window.location.hash) { primera.scrollIntoView({ block: "center" }); }
  }
}());
