/** The stage texts of processing's progress (the media core's and the job's), as the console shows them. */
export const PROGRESS_TEXT = {
  checking: 'Checking video',
  processing: 'Processing video',
  finishing: 'Finishing',
  done: 'Processed',
} as const;
