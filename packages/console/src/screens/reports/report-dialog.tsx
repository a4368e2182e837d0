/** The dialog of one report: its format (csv by default, pdf) and Download; it stays open while the file is made. */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { REPORT_FORMATS } from '@roomwalk/shared';
import { Dialog } from '../../ui/dialog.js';
import type { ReportFormat } from './report-rules.js';

interface Props {
  title: string | null;
  format: ReportFormat;
  onFormat: (f: ReportFormat) => void;
  busy: boolean;
  canSend: boolean;
  onClose: () => void;
  onDownload: () => void;
}

export function ReportDialog({ title, format, onFormat, busy, canSend, onClose, onDownload }: Props) {
  return (
    <Dialog
      open={!!title}
      label={title ?? 'Report'}
      onClose={onClose}
      persistent={busy}
      footer={
        <>
          <SlButton onClick={onClose} disabled={busy}>
            Cancel
          </SlButton>
          <SlButton variant="primary" disabled={busy || !canSend} onClick={onDownload}>
            <SlIcon slot="prefix" name="download" />
            {busy ? 'Generating...' : 'Download'}
          </SlButton>
        </>
      }
    >
      <fieldset className="format-choice">
        <legend>Format</legend>
        {REPORT_FORMATS.map((f) => (
          <label key={f} className="checkbox">
            <input
              type="radio"
              name="report-format"
              value={f}
              checked={format === f}
              onChange={() => onFormat(f)}
              disabled={busy}
            />
            {f}
          </label>
        ))}
      </fieldset>
    </Dialog>
  );
}
