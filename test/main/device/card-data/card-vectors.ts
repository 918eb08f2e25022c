/** Published card-data samples from docs/card-reader.md §2.3 and §3 (public test data, protects nothing). */

/** §2.3 Vector A: CyberSource REST sample "sale using EMV technology with contact read". */
export const VECTOR_A =
  '9F3303204000950500000000009F3704518823719F100706011103A000009F26081E1756ED0E2134E29F36020015820200009C01009F1A0208409A030006219F02060000000020005F2A0208409F0306000000000000'

/** §3: ID TECH NEO 2 guide p.60 test card (also inside the burst-mode frame of §1.2). */
export const IDTECH_TRACK1 = '%B6279257749132343^TEST CARD/VIVOTECH^10128130072104350000?'
export const IDTECH_TRACK2 = ';6279257749132343=10128130072104350000?'

/** §3: CyberSource samples; the first ends with the ';' of an empty track 2, the second carries TABs. */
export const CYBS_TRACK1 = '%B4111111111111111^TEST/CYBS         ^2012121019761100      00868000000?;'
export const CYBS_TRACK1_TABS = '%B38000000000006^TEST/CYBS\t\t ^2012121019761100\t\t00868000000?'

/** §2.3 Vector C: tag 57 value (track 2 equivalent) from the JavaTlv DGI test. */
export const VECTOR_C_TAG57 = '5981786067381230D2912501000000000000'
