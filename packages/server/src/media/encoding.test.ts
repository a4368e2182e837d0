/** The filter graph converts colour only when the source needs it, and tone maps HDR when it can. */
import { describe, expect, it } from 'vitest';
import { buildFilterGraph, buildSplitGraph, coverSize, segmentArgs } from './encoding.js';

const base = { stream: '0:0', portrait: false, toneMap: true, thumbnail: true };

describe('buildFilterGraph', () => {
  it('keeps swscale on its fast path for untagged or BT.709 limited-range sources', () => {
    for (const colour of [{}, { matrix: 'bt709' }]) {
      const graph = buildFilterGraph({ ...base, colour });
      expect(graph).not.toMatch(/color_matrix|range=/);
      expect(graph).toContain('fps=15,scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720');
    }
  });

  it('converts a BT.601 matrix and full-range levels to BT.709 limited range', () => {
    const graph = buildFilterGraph({ ...base, colour: { matrix: 'smpte170m', fullRange: true } });
    expect(graph).toContain('in_color_matrix=smpte170m:out_color_matrix=bt709:in_range=pc:out_range=tv');
  });

  it('tone maps PQ and HLG with zscale after the downscale, and falls back to a matrix conversion without it', () => {
    const hlg = { transfer: 'arib-std-b67', primaries: 'bt2020', matrix: 'bt2020nc' };
    const mapped = buildFilterGraph({ ...base, colour: hlg });
    expect(mapped.indexOf('crop=1280:720')).toBeLessThan(mapped.indexOf('zscale=tin=arib-std-b67'));
    expect(mapped).toContain('tonemap=tonemap=hable');
    const fallback = buildFilterGraph({ ...base, toneMap: false, colour: hlg });
    expect(fallback).not.toContain('zscale');
    expect(fallback).toContain('in_color_matrix=bt2020:out_color_matrix=bt709');
  });

  it("scales an HDR source down in zscale to the size that covers the rendition, swscale's size made even", () => {
    const hlg = { transfer: 'arib-std-b67', primaries: 'bt2020', matrix: 'bt2020nc' };
    const uhd = buildFilterGraph({ ...base, colour: hlg, codedSize: { width: 3840, height: 2160 } });
    expect(uhd).toContain('fps=15,zscale=w=1280:h=720:f=bicubic,crop=1280:720,zscale=tin=arib-std-b67');
    expect(uhd).not.toContain('force_original_aspect_ratio');
    // A portrait video stored landscape (rotated 90): sized in its stored orientation, turned after the crop.
    const turned = buildFilterGraph({
      ...base,
      portrait: true,
      rotation: 90,
      colour: hlg,
      codedSize: { width: 3840, height: 2160 },
    });
    expect(turned).toContain('zscale=w=1280:h=720:f=bicubic,crop=1280:720');
    expect(turned.indexOf('crop=1280:720')).toBeLessThan(turned.indexOf('transpose=cclock'));
    // Not 16:9: the short side fills, the long side is cropped; odd sizes rounded up to even.
    expect(coverSize({ width: 1440, height: 1080 }, { width: 1280, height: 720 })).toEqual({
      width: 1280,
      height: 960,
    });
    expect(coverSize({ width: 2560, height: 1080 }, { width: 1280, height: 720 })).toEqual({
      width: 1708,
      height: 720,
    });
    expect(coverSize({ width: 1000, height: 562 }, { width: 1280, height: 720 })).toEqual({ width: 1282, height: 720 });
    // SDR, or HDR without zscale, keeps swscale.
    expect(buildFilterGraph({ ...base, colour: {}, codedSize: { width: 3840, height: 2160 } })).toContain(
      'scale=1280:720:force_original_aspect_ratio=increase',
    );
    expect(
      buildFilterGraph({ ...base, toneMap: false, colour: hlg, codedSize: { width: 3840, height: 2160 } }),
    ).not.toContain('zscale');
  });

  it('sizes portrait renditions 720x1280 and 360x640 and crops the thumbnail to 16:9', () => {
    const graph = buildFilterGraph({ ...base, portrait: true, colour: {} });
    expect(graph).toContain('scale=720:1280');
    expect(graph).toContain('[low0]scale=360:640[low]');
    expect(graph).toContain('crop=iw:trunc(iw*9/16/2)*2[thumb]');
  });
});

describe('the copy path (a source in the clip format)', () => {
  it('leaves the 720p branch out of both graphs: only the 360p rendition and the thumbnail are encoded', () => {
    const graph = buildFilterGraph({ ...base, colour: {}, copyHigh: true });
    expect(graph).toContain('split=2[low0][thumb0]');
    expect(graph).not.toContain('[high]');
    expect(buildSplitGraph(false, false, true)).toContain('split=1[low0];');
    expect(buildSplitGraph(false, true)).toContain('split=3[high][low0][thumb0]');
  });
});

describe('segmentArgs', () => {
  it('cuts every 36 frames up to the expected length', () => {
    const args = segmentArgs(110, '/w/high.csv');
    expect(args[args.indexOf('-segment_frames') + 1]).toBe('36,72,108');
  });
});
