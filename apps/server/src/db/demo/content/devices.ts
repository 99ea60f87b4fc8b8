/** The demo park's devices and alerts: data only. */

/** The file under DATA_DIR where the demo devices' credentials go (read by `npm run devices:simulate`). */
export const DEMO_DEVICES_FILE = 'demo-devices.json';

/** The park's devices: public ones show on the open device pages; the substation's meter does not. */
export const DEMO_DEVICES: {
  code: string;
  name: string;
  en: string;
  type: string;
  location: string;
  locationEn: string;
  isPublic: boolean;
  latest: Record<string, number>;
  /** Minutes since it last reported (null: now). */
  silentMinutes?: number;
}[] = [
  {
    code: 'EM-A-01',
    name: 'A栋总电表',
    en: 'Building A main meter',
    type: 'meter',
    location: 'A栋配电室',
    locationEn: 'Building A, switch room',
    isPublic: true,
    latest: { power_kw: 86.4, energy_kwh: 12873 },
  },
  {
    code: 'WM-B-01',
    name: 'B栋总水表',
    en: 'Building B water meter',
    type: 'meter',
    location: 'B栋地下一层',
    locationEn: 'Building B, basement 1',
    isPublic: true,
    latest: { flow_m3h: 3.2, volume_m3: 5621 },
  },
  {
    code: 'TH-A3-01',
    name: 'A栋3楼温湿度',
    en: 'Building A floor 3 climate',
    type: 'sensor',
    location: 'A栋3楼走廊',
    locationEn: 'Building A, floor 3 corridor',
    isPublic: true,
    latest: { temperature: 23.5, humidity: 41 },
  },
  {
    code: 'AQ-C1-01',
    name: 'C栋大堂空气质量',
    en: 'Building C lobby air quality',
    type: 'sensor',
    location: 'C栋大堂',
    locationEn: 'Building C, lobby',
    isPublic: true,
    latest: { pm25: 18, co2: 1180 },
  },
  {
    code: 'AC-A-01',
    name: 'A栋空调机组',
    en: 'Building A air handler',
    type: 'hvac',
    location: 'A栋屋顶',
    locationEn: 'Building A, roof',
    isPublic: true,
    latest: { supply_temp: 12.5, return_temp: 19.8 },
  },
  {
    code: 'LIFT-B-02',
    name: 'B栋2号电梯',
    en: 'Building B lift 2',
    type: 'lift',
    location: 'B栋东侧',
    locationEn: 'Building B, east side',
    isPublic: true,
    latest: { floor: 7, load_kg: 320 },
  },
  {
    code: 'GATE-N-01',
    name: '北门道闸',
    en: 'North gate barrier',
    type: 'gate',
    location: '园区北门',
    locationEn: 'North entrance',
    isPublic: true,
    latest: { passes_today: 412 },
  },
  {
    code: 'CAM-E-01',
    name: '东门摄像头',
    en: 'East gate camera',
    type: 'camera',
    location: '园区东门',
    locationEn: 'East entrance',
    isPublic: true,
    latest: { fps: 25 },
    silentMinutes: 135,
  },
  {
    code: 'EM-SUB-01',
    name: '变电站主表',
    en: 'Substation main meter',
    type: 'meter',
    location: '园区变电站',
    locationEn: 'Park substation',
    isPublic: false,
    latest: { power_kw: 1240 },
  },
];

/** Alerts of the demo devices, by device code: open, acknowledged and closed ones. */
export const DEMO_ALERTS = [
  {
    device: 'LIFT-B-02',
    severity: 'critical',
    state: 'open',
    minutes: 12,
    message: 'B栋2号电梯困人报警',
    en: 'Building B lift 2: passenger trapped',
  },
  {
    device: 'AQ-C1-01',
    severity: 'warning',
    state: 'acknowledged',
    minutes: 45,
    message: 'C栋大堂二氧化碳浓度偏高（1180 ppm）',
    en: 'Building C lobby: CO₂ high (1180 ppm)',
  },
  {
    device: 'AC-A-01',
    severity: 'warning',
    state: 'open',
    minutes: 90,
    message: 'A栋空调机组回水温度偏高',
    en: 'Building A air handler: return water too warm',
  },
  {
    device: 'GATE-N-01',
    severity: 'info',
    state: 'closed',
    minutes: 600,
    message: '北门道闸每日自检完成',
    en: 'North gate barrier: daily self-test done',
  },
  {
    device: 'EM-SUB-01',
    severity: 'critical',
    state: 'open',
    minutes: 5,
    message: '变电站主表通信中断',
    en: 'Substation main meter: link lost',
  },
];
