/**
 * The `model_prices` setting as editable rows (USD per million tokens), with route-core ModelPrices'
 * rules: a model name of 1..256 characters, each name once, input and output required, every price a
 * number 0..1,000,000, at most 1000 models. The API checks the same (validation.model_prices).
 */
export const PRICE_FIELDS = [
  'input_per_million',
  'output_per_million',
  'reasoning_per_million',
  'cache_read_per_million',
  'cache_write_5m_per_million',
  'cache_write_1h_per_million',
] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];
export const REQUIRED_PRICES: readonly PriceField[] = ['input_per_million', 'output_per_million'];
export const MAX_PRICE = 1_000_000;
export const MAX_MODELS = 1000;
export const MAX_MODEL_CHARS = 256;

export type PriceRow = { model: string } & Partial<Record<PriceField, number | null>>;

export function pricesToRows(prices: unknown): PriceRow[] {
  if (!prices || typeof prices !== 'object' || Array.isArray(prices)) return [];
  return Object.entries(prices as Record<string, Record<string, number>>).map(([model, price]) => {
    const row: PriceRow = { model };
    for (const field of PRICE_FIELDS) if (typeof price?.[field] === 'number') row[field] = price[field];
    return row;
  });
}

export function rowsToPrices(rows: readonly PriceRow[]): Record<string, Partial<Record<PriceField, number>>> {
  const prices: Record<string, Partial<Record<PriceField, number>>> = {};
  for (const row of rows) {
    const price: Partial<Record<PriceField, number>> = {};
    for (const field of PRICE_FIELDS) {
      const value = row[field];
      if (typeof value === 'number') price[field] = value;
    }
    prices[row.model.trim()] = price;
  }
  return prices;
}

/** Every problem of the rows: [row index, field or 'model', message] (empty when they can be saved). */
export function priceErrors(rows: readonly PriceRow[]): [number, PriceField | 'model', string][] {
  const errors: [number, PriceField | 'model', string][] = [];
  if (rows.length > MAX_MODELS) errors.push([MAX_MODELS, 'model', `validation.model_prices: at most ${MAX_MODELS} models`]);
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const model = (row.model ?? '').trim();
    if (!model || model.length > MAX_MODEL_CHARS || /[\u0000-\u001f\u007f]/.test(model)) {
      errors.push([index, 'model', `validation.model_prices: a model name is 1..${MAX_MODEL_CHARS} characters without control characters`]);
    } else if (seen.has(model)) {
      errors.push([index, 'model', `validation.model_prices: ${model} is priced twice`]);
    }
    seen.add(model);
    for (const field of PRICE_FIELDS) {
      const value = row[field];
      if (value === undefined || value === null) {
        if (REQUIRED_PRICES.includes(field)) errors.push([index, field, `validation.model_prices: ${field} is required`]);
      } else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_PRICE) {
        errors.push([index, field, `validation.model_prices: ${field} must be 0..${MAX_PRICE}`]);
      }
    }
  });
  return errors;
}
