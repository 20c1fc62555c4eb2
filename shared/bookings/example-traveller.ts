/** The traveller the documentation, the demo and the benchmarks book: one adult and a contact. */
export const exampleTraveller = {
  passengers: [
    {
      title: 'ms',
      first_name: 'Ada',
      last_name: 'Lovelace',
      pax_type: 'ADULT',
      gender: 'f',
      born_on: '1985-12-10',
    },
  ],
  contact: { email: 'ada@example.com', phone: '+447700900123' },
} as const;
