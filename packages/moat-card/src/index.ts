export { MCP_APP_MIME_TYPE, MOAT_CARD_URI, moatCardAppHtml } from './app-resource.js';
export { CARD_DISCLAIMER, type CardEvaluation, renderMoatCard } from './card.js';
export { type MoatCardPageOptions, moatCardPage } from './card-page.js';
export { CARD_STYLE } from './card-style.js';
export { SPARK_BLOCKS, sparkline } from './sparkline.js';
export { type TrendChartInput, trendChartSvg } from './trend-chart.js';
export {
  formatThreshold,
  formatTrendValue,
  TREND_SCALES,
  type TrendScale,
  type TrendThreshold,
  type TrendUnit,
  trendScaleOf,
} from './trend-scales.js';
export { portfolioXrayPage, type XrayPageOptions } from './xray-page.js';
