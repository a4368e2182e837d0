/**
 * The stage texts of the jobs' progress (processing's media core and job, a reel's render), as the console shows them.
 */
export const PROGRESS_TEXT = {
  preparing: 'Preparing video',
  checking: 'Checking video',
  processing: 'Processing video',
  finishing: 'Finishing',
  done: 'Processed',
  savingTour: 'Saving tour',
  renderingReel: 'Rendering reel',
  savingReel: 'Saving reel',
} as const;
