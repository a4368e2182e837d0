import { PLAYER } from '@roomwalk/shared/constants';

export interface DeviceProfile {
  cores: number;
  memoryGb: number;
  mobile: boolean;
  lowEnd: boolean;
}

/** Reads what the browser tells about the device; deviceMemory is capped at 8 by browsers. */
export function readDevice(): DeviceProfile {
  const nav = navigator as Navigator & { deviceMemory?: number; userAgentData?: { mobile?: boolean } };
  const cores = nav.hardwareConcurrency || 2;
  const memoryGb = nav.deviceMemory ?? 4;
  const mobile = nav.userAgentData?.mobile ?? /Android|iPhone|iPad|Mobile/i.test(nav.userAgent);
  const lowEnd = cores <= 2 && memoryGb <= 2;
  return { cores, memoryGb, mobile, lowEnd };
}

/** Worker count. */
export function workerCount(d: DeviceProfile, clipCount: number): number {
  if (d.lowEnd) return Math.max(1, Math.min(2, clipCount));
  if (d.mobile) return Math.max(1, Math.min(d.memoryGb <= 3 ? 1 : 2, clipCount));
  return Math.max(1, Math.min(Math.floor(d.cores / 2) + 1, clipCount, PLAYER.maxWorkers));
}

/** Decode batch size. */
export function batchSize(d: DeviceProfile): number {
  const b = PLAYER.decodeBatchSize;
  return d.lowEnd ? b.lowEnd : d.mobile ? b.mobile : b.default;
}

/** High resolution needs at least 4 GB of memory. */
export function canDecodeHighRes(d: DeviceProfile): boolean {
  return d.memoryGb >= PLAYER.highResMinMemoryGb;
}
