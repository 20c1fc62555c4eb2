/** A booking request that passes validation (its offer id is not a real one). No handler is loaded. */
export function minimalBookingBody(
  passenger: Record<string, unknown> = {},
  contact: Record<string, unknown> = {},
) {
  return {
    flight_id: 'off_x',
    flight_details: {
      id: 'off_x',
      total_price: 1,
      currency: 'EUR',
      outbound: {
        segments: [
          {
            carrier_name: 'A',
            flight_number: 'A1',
            origin: 'LHR',
            destination: 'JFK',
            departure_at: '2026-12-02T10:00:00Z',
          },
        ],
      },
    },
    total_price: 1,
    currency: 'EUR',
    passengers: [
      {
        title: 'mr',
        first_name: 'Alan',
        last_name: 'Turing',
        pax_type: 'ADULT',
        gender: 'm',
        born_on: '1980-06-23',
        ...passenger,
      },
    ],
    contact: { email: 'alan@example.com', phone: '+447700900123', ...contact },
  };
}
