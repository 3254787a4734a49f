/**
 * The power simulator's device catalogue and the solution, schematic and parts-list shapes it
 * derives from a request (design/upstream-wire-notes.md, "Power converter"). Values are
 * realistic, not real: a handful of buck, boost and flyback controllers with their input,
 * output and current ranges. Everything is derived from the solution id, so the server keeps
 * no state between a search and its follow-ups.
 */

/** One orderable device of the catalogue (upstream field names: this is the upstream). */
export interface SimDevice {
  deviceId: number;
  partNumber: string;
  basePn: string;
  topology: 'Buck' | 'Boost' | 'Flyback' | 'Buck-Boost';
  controlModeName: string;
  regType: string;
  vinMin: number;
  vinMax: number;
  voutMin: number;
  voutMax: number;
  ioutMax: number;
  isolated: 'Y' | 'N';
  package: string;
  price: number;
  /** Nominal switching frequency, Hz. */
  frequency: number;
  /** Best-case efficiency at its sweet spot, 0-1. */
  peakEfficiency: number;
  /** Board area of a typical design, mm². */
  footprint: number;
}

export const DEVICES: readonly SimDevice[] = [
  {
    deviceId: 10417,
    partNumber: 'LMR51430XDDCR',
    basePn: 'LMR51430',
    topology: 'Buck',
    controlModeName: 'Peak Current Mode',
    regType: 'Converter',
    vinMin: 4.5,
    vinMax: 36,
    voutMin: 0.8,
    voutMax: 28,
    ioutMax: 3,
    isolated: 'N',
    package: 'SOT-23-THN',
    price: 0.62,
    frequency: 1_100_000,
    peakEfficiency: 0.93,
    footprint: 74,
  },
  {
    deviceId: 10652,
    partNumber: 'TPS62933DRLR',
    basePn: 'TPS62933',
    topology: 'Buck',
    controlModeName: 'Peak Current Mode',
    regType: 'Converter',
    vinMin: 3.8,
    vinMax: 30,
    voutMin: 0.8,
    voutMax: 22,
    ioutMax: 3,
    isolated: 'N',
    package: 'SOT-583',
    price: 0.55,
    frequency: 500_000,
    peakEfficiency: 0.95,
    footprint: 95,
  },
  {
    deviceId: 9921,
    partNumber: 'LM5164DDAR',
    basePn: 'LM5164',
    topology: 'Buck',
    controlModeName: 'COT',
    regType: 'Converter',
    vinMin: 6,
    vinMax: 100,
    voutMin: 1.2,
    voutMax: 90,
    ioutMax: 1,
    isolated: 'N',
    package: 'SO PowerPAD-8',
    price: 1.34,
    frequency: 300_000,
    peakEfficiency: 0.92,
    footprint: 160,
  },
  {
    deviceId: 11208,
    partNumber: 'LM5146QRGYRQ1',
    basePn: 'LM5146-Q1',
    topology: 'Buck',
    controlModeName: 'Voltage Mode',
    regType: 'Controller',
    vinMin: 5.5,
    vinMax: 100,
    voutMin: 0.8,
    voutMax: 60,
    ioutMax: 20,
    isolated: 'N',
    package: 'VQFN-20',
    price: 2.1,
    frequency: 400_000,
    peakEfficiency: 0.96,
    footprint: 420,
  },
  {
    deviceId: 8733,
    partNumber: 'TPS61088RHLR',
    basePn: 'TPS61088',
    topology: 'Boost',
    controlModeName: 'Adaptive COT',
    regType: 'Converter',
    vinMin: 2.7,
    vinMax: 12,
    voutMin: 4.5,
    voutMax: 12.6,
    ioutMax: 4,
    isolated: 'N',
    package: 'VQFN-20',
    price: 1.05,
    frequency: 600_000,
    peakEfficiency: 0.91,
    footprint: 130,
  },
  {
    deviceId: 7310,
    partNumber: 'LM5180NGUR',
    basePn: 'LM5180',
    topology: 'Flyback',
    controlModeName: 'PSR Boundary Mode',
    regType: 'Converter',
    vinMin: 4.5,
    vinMax: 65,
    voutMin: 3.3,
    voutMax: 24,
    ioutMax: 1.5,
    isolated: 'Y',
    package: 'WSON-8',
    price: 1.48,
    frequency: 350_000,
    peakEfficiency: 0.88,
    footprint: 380,
  },
  {
    deviceId: 12044,
    partNumber: 'UCC28881DR',
    basePn: 'UCC28881',
    topology: 'Buck',
    controlModeName: 'Valley Current Mode',
    regType: 'Converter',
    vinMin: 85,
    vinMax: 700,
    voutMin: 5,
    voutMax: 24,
    ioutMax: 0.225,
    isolated: 'N',
    package: 'SOIC-7',
    price: 0.48,
    frequency: 62_000,
    peakEfficiency: 0.8,
    footprint: 510,
  },
  {
    deviceId: 12510,
    partNumber: 'UCC28740DR',
    basePn: 'UCC28740',
    topology: 'Flyback',
    controlModeName: 'Primary Side Regulation',
    regType: 'Controller',
    vinMin: 85,
    vinMax: 400,
    voutMin: 3.3,
    voutMax: 48,
    ioutMax: 4,
    isolated: 'Y',
    package: 'SOIC-7',
    price: 0.74,
    frequency: 100_000,
    peakEfficiency: 0.87,
    footprint: 1800,
  },
  {
    deviceId: 9005,
    partNumber: 'TPS63070RNMR',
    basePn: 'TPS63070',
    topology: 'Buck-Boost',
    controlModeName: 'Average Current Mode',
    regType: 'Converter',
    vinMin: 2,
    vinMax: 16,
    voutMin: 2.5,
    voutMax: 9,
    ioutMax: 2,
    isolated: 'N',
    package: 'VQFN-HR-15',
    price: 1.62,
    frequency: 2_400_000,
    peakEfficiency: 0.93,
    footprint: 60,
  },
];

/** The search body as the upstream takes it; numbers may come as strings. */
export interface SimRequest {
  vinMin: number;
  vinMax: number;
  vout: number;
  iout: number;
  ambientTemp: number;
  isIsolated: boolean;
  powerSupply: string;
  optimizationSetting: number;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Solution id: device, vout and iout in milli-units, input range: enough to rebuild it. */
export function solutionId(d: SimDevice, r: SimRequest): string {
  return [
    d.deviceId,
    Math.round(r.vout * 1000),
    Math.round(r.iout * 1000),
    Math.round(r.vinMin * 1000),
    Math.round(r.vinMax * 1000),
    Math.round(r.ambientTemp),
  ].join('-');
}

/** The device and requirement a solution id names, or undefined. */
export function parseSolutionId(id: string): { device: SimDevice; req: SimRequest } | undefined {
  const m = /^(\d+)-(\d+)-(\d+)-(\d+)-(\d+)-(-?\d+)$/.exec(id);
  const device = m ? DEVICES.find((d) => d.deviceId === Number(m[1])) : undefined;
  if (!m || !device) return undefined;
  return {
    device,
    req: {
      vout: Number(m[2]) / 1000,
      iout: Number(m[3]) / 1000,
      vinMin: Number(m[4]) / 1000,
      vinMax: Number(m[5]) / 1000,
      ambientTemp: Number(m[6]),
      isIsolated: device.isolated === 'Y',
      powerSupply: 'dc',
      optimizationSetting: 3,
    },
  };
}

function fits(d: SimDevice, r: SimRequest): boolean {
  const supplyOk = r.powerSupply === 'ac' ? d.vinMax >= 264 : true;
  return (
    d.vinMin <= r.vinMin &&
    d.vinMax >= r.vinMax &&
    d.voutMin <= r.vout &&
    d.voutMax >= r.vout &&
    d.ioutMax >= r.iout &&
    (!r.isIsolated || d.isolated === 'Y') &&
    supplyOk
  );
}

/** One solution in the upstream's shape, with the extra fields seen in the wild. */
function solution(d: SimDevice, r: SimRequest) {
  const load = r.iout / d.ioutMax;
  const efficiency = round(
    d.peakEfficiency - 0.04 * Math.abs(load - 0.6) - 0.002 * Math.max(0, r.vinMax / r.vout - 5),
    4,
  );
  const lossW = (r.vout * r.iout * (1 - efficiency)) / efficiency;
  const bomCount = d.regType === 'Controller' ? 24 : d.topology === 'Flyback' ? 19 : 12;
  return {
    id: solutionId(d, r),
    rank: 0,
    considerations: `${d.topology} design with ${d.basePn} (${d.controlModeName}), ${r.vout} V at ${r.iout} A from ${r.vinMin}-${r.vinMax} V; ${bomCount} parts.`,
    info: {
      device: {
        partNumber: d.partNumber,
        basePn: d.basePn,
        topology: d.topology,
        deviceId: d.deviceId,
        price: d.price,
        regType: d.regType,
        controlModeName: d.controlModeName,
        vinMin: d.vinMin,
        vinMax: d.vinMax,
        voutMin: d.voutMin,
        voutMax: d.voutMax,
        isolated: d.isolated,
        package: d.package,
        ioutMax: d.ioutMax,
      },
      bomCost: round(d.price + bomCount * 0.09 + r.iout * 0.35, 2),
      efficiency,
      footprint: Math.round(d.footprint * (0.7 + load * 0.6)),
      frequency: d.frequency,
      temperature: round(r.ambientTemp + lossW * 11, 1),
      bomCount,
      vOutPkPk: round(r.vout * 0.004, 4),
      maxIout: d.ioutMax,
    },
  };
}

export type SimSolution = ReturnType<typeof solution>;

/** Ranked solutions for a request, ordered by the optimisation goal (1 footprint … 4 efficiency). */
export function solutionsFor(r: SimRequest): SimSolution[] {
  const score = (s: SimSolution) => {
    switch (r.optimizationSetting) {
      case 1:
        return s.info.footprint;
      case 2:
        return s.info.bomCost;
      case 4:
        return -s.info.efficiency;
      default:
        return s.info.bomCost / 3 + s.info.footprint / 200 - s.info.efficiency * 2;
    }
  };
  return DEVICES.filter((d) => fits(d, r))
    .map((d) => solution(d, r))
    .sort((a, b) => score(a) - score(b))
    .map((s, i) => ({ ...s, rank: i + 1 }));
}

/** The schematic of a solution: a picture with a title and labels (not a netlist). */
export function schematicSvg(d: SimDevice, r: SimRequest, unsafe = false): string {
  const parts = [
    ['U1', d.partNumber, 160, 60],
    ['L1', `${round((r.vout * 4.7) / Math.max(0.2, r.iout), 1)}uH`, 280, 40],
    ['CIN', '10uF 50V', 60, 110],
    ['COUT', '47uF 16V', 380, 110],
    ['RFBT', '100k', 300, 150],
    ['RFBB', '22.1k', 300, 200],
  ] as const;
  const boxes = parts
    .map(
      ([ref, value, x, y]) =>
        `<g id="${ref}"><rect x="${x}" y="${y}" width="70" height="34" fill="none" stroke="#222"/><text x="${x + 4}" y="${y + 14}" font-size="10">${ref}</text><text x="${x + 4}" y="${y + 28}" font-size="9">${value}</text></g>`,
    )
    .join('');
  const evil = unsafe
    ? '<script>alert(1)</script><a href="javascript:alert(2)"><text x="5" y="250">click</text></a><image href="https://attacker.invalid/x.png" width="1" height="1"/>'
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" width="480" height="260" viewBox="0 0 480 260"${unsafe ? ' onload="alert(3)"' : ''}><title>${d.basePn} ${d.topology} ${r.vout}V ${r.iout}A</title><desc>Reference schematic preview; not a netlist.</desc><path d="M20 127 H60 M130 127 H160 M230 77 H280 M350 57 H380 V110" stroke="#222" fill="none"/>${boxes}${evil}</svg>`;
}

/** The parts list of a solution in the upstream's own field names. */
export function bomComponents(d: SimDevice, r: SimRequest) {
  return [
    {
      refDes: 'U1',
      partNumber: d.partNumber,
      qty: 1,
      value: d.basePn,
      manufacturer: 'Texas Instruments',
      description: `${d.topology} ${d.regType.toLowerCase()}`,
      voltageRating: d.vinMax,
      currentRating: d.ioutMax,
      powerRating: null,
      tolerance: null,
    },
    {
      refDes: 'L1',
      partNumber: 'XAL6060-682MEB',
      qty: 1,
      value: `${round((r.vout * 4.7) / Math.max(0.2, r.iout), 1)}uH`,
      manufacturer: 'Coilcraft',
      description: 'Shielded power inductor',
      voltageRating: null,
      currentRating: round(r.iout * 1.5, 2),
      powerRating: null,
      tolerance: '20%',
    },
    {
      refDes: 'CIN',
      partNumber: 'GRM32ER71H106KA12L',
      qty: 2,
      value: '10uF',
      manufacturer: 'Murata',
      description: 'Ceramic capacitor X7R',
      voltageRating: 50,
      currentRating: null,
      powerRating: null,
      tolerance: '10%',
    },
    {
      refDes: 'COUT',
      partNumber: 'GRM32ER61C476ME15L',
      qty: 2,
      value: '47uF',
      manufacturer: 'Murata',
      description: 'Ceramic capacitor X5R',
      voltageRating: 16,
      currentRating: null,
      powerRating: null,
      tolerance: '20%',
    },
    {
      refDes: 'RFBT',
      partNumber: 'CRCW0402100KFKED',
      qty: 1,
      value: '100k',
      manufacturer: 'Vishay-Dale',
      description: 'Thick film resistor',
      voltageRating: 50,
      currentRating: null,
      powerRating: 0.063,
      tolerance: '1%',
    },
    {
      refDes: 'RFBB',
      partNumber: 'CRCW040222K1FKED',
      qty: 1,
      value: '22.1k',
      manufacturer: 'Vishay-Dale',
      description: 'Thick film resistor',
      voltageRating: 50,
      currentRating: null,
      powerRating: 0.063,
      tolerance: '1%',
    },
  ];
}
