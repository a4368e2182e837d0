/** Types of test-video-cache.mjs (the test videos' one cache). */
export declare function cachedFolder(
  commands: unknown[],
  make: (dir: string) => Promise<void>,
  o?: { ffmpeg?: string },
): Promise<string>;
export declare function cachedFolderSync(commands: unknown[], make: (dir: string) => void, o?: { ffmpeg?: string }): string;
export declare function cachedVideo(
  args: readonly string[],
  o?: { name?: string; ffmpeg?: string; timeout?: number },
): Promise<string>;
export declare function cachedVideoSync(
  args: readonly string[],
  o?: { name?: string; ffmpeg?: string; timeout?: number },
): string;
