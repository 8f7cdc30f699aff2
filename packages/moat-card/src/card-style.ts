/**
 * The card's style sheet: system fonts, colours as custom properties for light and dark (the
 * reader's `prefers-color-scheme`, or a host's choice as `data-theme="light" | "dark"` on the
 * root element), criteria in a grid of as many columns as fit (one on a 375 px phone, three at
 * 1200 px), charts as wide as their column. No external resource.
 */
export const CARD_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#5c5f66;--line:#d9dbe0;--panel:#f6f7f9;
--accent:#1f5fbf;--pass:#1a7f37;--warn:#9a6700;--fail:#c62828;--band0:#f3d6d6;--band1:#f6e7c4;--band2:#dbe8f7;--band3:#d3efd9}
@media (prefers-color-scheme:dark){:root{--bg:#16181d;--fg:#e8e9ec;--muted:#a3a7b0;--line:#363a44;--panel:#1f2229;
--accent:#79a8f5;--pass:#56c26f;--warn:#e3b341;--fail:#f07171;--band0:#4a2a2d;--band1:#4a3f22;--band2:#23364f;--band3:#1f4129}}
:root[data-theme=light]{color-scheme:light;--bg:#fff;--fg:#1b1b1f;--muted:#5c5f66;--line:#d9dbe0;--panel:#f6f7f9;
--accent:#1f5fbf;--pass:#1a7f37;--warn:#9a6700;--fail:#c62828;--band0:#f3d6d6;--band1:#f6e7c4;--band2:#dbe8f7;--band3:#d3efd9}
:root[data-theme=dark]{color-scheme:dark;--bg:#16181d;--fg:#e8e9ec;--muted:#a3a7b0;--line:#363a44;--panel:#1f2229;
--accent:#79a8f5;--pass:#56c26f;--warn:#e3b341;--fail:#f07171;--band0:#4a2a2d;--band1:#4a3f22;--band2:#23364f;--band3:#1f4129}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.moat-card{max-width:76rem;margin:0 auto;padding:1rem}
.moat-card h1{font-size:1.35rem;margin:0}.moat-card .symbol{color:var(--muted);font-weight:500}
.place{margin:.1rem 0 .6rem;color:var(--muted)}
.verdict{font-size:1.15rem;font-weight:650;margin:.2rem 0}
.total{margin:.2rem 0 .4rem}.total strong{font-size:1.6rem}
svg.bands{display:block;width:100%;max-width:32rem;height:auto}
.band{stroke:var(--bg);stroke-width:1}.band-0{fill:var(--band0)}.band-1{fill:var(--band1)}.band-2{fill:var(--band2)}.band-3{fill:var(--band3)}
.band.active{stroke:var(--fg);stroke-width:1.5}
.bands .mark{stroke:var(--fg);stroke-width:4}
.bands .axis{font-size:11px}
.criteria{list-style:none;padding:0;margin:1rem 0;display:grid;gap:.8rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,21rem),1fr))}
.criterion{background:var(--panel);border:1px solid var(--line);border-left:4px solid var(--muted);border-radius:6px;padding:.6rem .75rem;min-width:0}
.criterion.status-pass{border-left-color:var(--pass)}.criterion.status-warning{border-left-color:var(--warn)}.criterion.status-fail{border-left-color:var(--fail)}
.criterion-head{display:flex;justify-content:space-between;gap:.5rem;align-items:baseline}
.criterion h2{font-size:1rem;margin:0}
.status{font-size:.8rem;font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.status-pass .status{color:var(--pass)}.status-warning .status{color:var(--warn)}.status-fail .status{color:var(--fail)}
.score{margin:.1rem 0;font-variant-numeric:tabular-nums}.value{margin:.2rem 0;font-size:.88rem;overflow-wrap:anywhere}
figure{margin:.3rem 0 0}figcaption{font-size:.78rem;color:var(--muted)}
svg.trend-chart{display:block;width:100%;height:auto}
.trend-chart .line{fill:none;stroke:var(--accent);stroke-width:2}
.trend-chart .point{fill:var(--accent)}.trend-chart .point[data-side=fail]{fill:var(--fail)}
.trend-chart .threshold{stroke:var(--warn);stroke-width:1.3;stroke-dasharray:5 4}
.trend-chart .threshold-label{fill:var(--warn);font-size:10px}
.trend-chart .zero{stroke:var(--muted);stroke-width:.8}
.trend-chart .frame{stroke:var(--line);stroke-width:1}
.axis{fill:var(--muted);font-size:10px}
.band-legend{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-wrap:wrap;gap:.2rem .9rem;font-size:.8rem;color:var(--muted)}
.band-legend li{display:flex;align-items:center;gap:.3rem}.band-legend .active{color:var(--fg);font-weight:650}
.swatch{display:inline-block;width:.8rem;height:.8rem;border:1px solid var(--line)}
.band-0 .swatch{background:var(--band0)}.band-1 .swatch{background:var(--band1)}.band-2 .swatch{background:var(--band2)}.band-3 .swatch{background:var(--band3)}
.valuation{margin:.6rem 0;padding:.5rem .75rem;border:1px solid var(--line);border-radius:6px;background:var(--panel)}
.valuation.sell{border-color:var(--fail)}.valuation h2{font-size:1rem;margin:0 0 .3rem}
.valuation dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,9rem),1fr));gap:.3rem .8rem;margin:0}
.valuation dt{font-size:.78rem;color:var(--muted)}.valuation dd{margin:0;font-variant-numeric:tabular-nums;font-weight:600}
.valuation .price{font-size:.8rem;color:var(--muted);margin:.4rem 0 0}
.data-quality{margin:.3rem 0;padding:0 0 0 .5rem;list-style:none;font-size:.82rem;border-left:3px solid var(--warn)}
.trend-chart .missing-tick{stroke:var(--muted);stroke-width:.8;stroke-dasharray:2 3}
.trend-chart .missing-mark{fill:var(--fail);font-size:11px;font-weight:700}
.trend-chart .clip-arrow{fill:var(--fail)}.trend-chart .clip-label{fill:var(--fail);font-size:10px}
.no-trend{color:var(--muted);font-size:.85rem}
details{font-size:.8rem;color:var(--muted);margin-top:.3rem}summary{cursor:pointer}
footer{border-top:1px solid var(--line);padding-top:.6rem;font-size:.85rem;color:var(--muted)}
footer p{margin:.2rem 0}.filings{margin:.2rem 0;padding-left:1.2rem;overflow-wrap:anywhere}
.disclaimer{color:var(--fg);font-weight:600}
.card-status{max-width:76rem;margin:1rem auto;padding:0 1rem;color:var(--muted)}
`;
