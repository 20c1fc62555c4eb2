import { describe, expect, it } from 'vitest';
import { changeTerms } from '#shared/bookings/change-rules.ts';

const condition = (allowed: boolean, amount?: number) => ({
  allowed,
  penalty: amount === undefined ? null : { amount, currency: 'EUR' },
});
const conditions = (change: ReturnType<typeof condition>, refund = condition(true, 40)) => ({
  refund_before_departure: refund,
  change_before_departure: change,
});

describe('changeTerms', () => {
  it('sums each changed journey’s own penalty where the sale stated conditions per journey', () => {
    const flight = {
      conditions: conditions(condition(true, 55)),
      slices: [
        { conditions: conditions(condition(true, 25)) },
        { conditions: conditions(condition(true, 30)) },
      ],
    };

    expect(changeTerms(flight, [0, 1], 'EUR')).toEqual({ penalty: 5500, moneyBack: true });
    expect(changeTerms(flight, [1], 'EUR')).toEqual({ penalty: 3000, moneyBack: true });
  });

  it('reads the trip’s conditions for a journey without its own, its penalty counted once', () => {
    const flight = { conditions: conditions(condition(true, 55)), slices: [{}, {}] };

    expect(changeTerms(flight, [0, 1], 'EUR')).toEqual({ penalty: 5500, moneyBack: true });
  });

  it('gives no money back when a changed journey is not refundable, and refuses a journey that allows no change', () => {
    const flight = {
      slices: [
        { conditions: conditions(condition(true, 25), condition(false)) },
        { conditions: conditions(condition(false)) },
      ],
    };

    expect(changeTerms(flight, [0], 'EUR')).toEqual({ penalty: 2500, moneyBack: false });
    expect(() => changeTerms(flight, [1], 'EUR')).toThrow(/does not allow changes/);
  });

  it('allows a change at no penalty where nothing was stated (bookings sold before conditions were kept)', () => {
    expect(changeTerms({}, [0], 'EUR')).toEqual({ penalty: 0, moneyBack: true });
  });
});
