import { describe, expect, it } from 'vitest';
import { priceErrors, pricesToRows, rowsToPrices } from './prices';

describe('the model price editor', () => {
  it('turns the setting into rows and back without losing a price', () => {
    const prices = { 'o4-mini': { input_per_million: 1.1, output_per_million: 4.4, cache_read_per_million: 0.275 } };
    expect(rowsToPrices(pricesToRows(prices))).toEqual(prices);
  });

  it('requires input and output, refuses negative, huge and duplicate entries with the API code', () => {
    const errors = priceErrors([
      { model: 'a', input_per_million: 1 },
      { model: 'a', input_per_million: -1, output_per_million: 2_000_000 },
      { model: '  ', input_per_million: 1, output_per_million: 1 },
    ]);
    expect(errors.map(([row, field]) => `${row}:${field}`)).toEqual([
      '0:output_per_million',
      '1:model',
      '1:input_per_million',
      '1:output_per_million',
      '2:model',
    ]);
    expect(errors.every(([, , message]) => message.startsWith('validation.model_prices'))).toBe(true);
    expect(priceErrors([{ model: 'ok', input_per_million: 0, output_per_million: 15 }])).toEqual([]);
  });
});
