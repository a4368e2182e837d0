/**
 * The Tour Info dialog: Title, Listing Link and Description with the shared limits and messages, and
 * (when editing) the thumbnail change with a 16:9 crop. After an upload it reads 'Done' and saving goes to /.
 */
import { useRef, type ReactNode } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { THUMBNAIL_EXTENSIONS } from '@roomwalk/shared';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField, TextAreaField } from '../../ui/form-field.js';
import { TourAccessField } from './tour-access-field.js';
import { LeadGateField } from './lead-gate-field.js';
import { TourListingField } from './tour-listing-field.js';
import { ThumbnailCrop, type CropRect } from './thumbnail-crop.js';
import { TOUR_TEXTS } from './texts.js';
import { cutOffNote } from './tour-status.js';
import { useThumbnailChange, useTourInfo, type TourInfoTarget } from './use-tour-info.js';

export interface TourInfoDialogProps {
  open: boolean;
  tour: TourInfoTarget;
  /** 'upload' after a new upload (Done; saving goes to /), 'edit' from a tour card (Save and Cancel, thumbnail). */
  mode: 'upload' | 'edit';
  onClose: () => void;
  onSaved: () => void;
}

export function TourInfoDialog({ open, tour, mode, onClose, onSaved }: TourInfoDialogProps) {
  const { register, submit, submitting, failure, errorOf: show, settings } = useTourInfo(tour, mode, onSaved);

  return (
    <FormDialog
      open={open}
      label={TOUR_TEXTS.tourInfo}
      onClose={onClose}
      onSubmit={submit}
      submitting={submitting}
      failure={failure}
      persistent={mode === 'upload'}
      submitLabel={mode === 'upload' ? TOUR_TEXTS.done : TOUR_TEXTS.save}
      cancelLabel={mode === 'edit' ? TOUR_TEXTS.cancel : null}
      before={mode === 'edit' ? <ThumbnailChange tour={tour} /> : null}
    >
      {cutOffNote(tour.videoInfo) ? (
        <p className="hint" role="note" data-testid="tour-info-cut-off">
          {cutOffNote(tour.videoInfo)}
        </p>
      ) : null}
      <FormField
        label={TOUR_TEXTS.title}
        placeholder={TOUR_TEXTS.titlePlaceholder}
        error={show('title')}
        {...register('title')}
      />
      <FormField
        label={TOUR_TEXTS.listingLink}
        type="url"
        inputMode="url"
        placeholder="https://"
        error={show('listingLink')}
        {...register('listingLink')}
      />
      <TextAreaField label={TOUR_TEXTS.description} rows={4} error={show('description')} {...register('description')} />
      {mode === 'edit' && settings ? (
        <>
          <TourSwitch
            id="blur-faces"
            legend={TOUR_TEXTS.privacy}
            label={TOUR_TEXTS.blurFaces}
            hint={TOUR_TEXTS.blurFacesHint}
            checked={settings.blur.checked}
            onChange={settings.blur.set}
          >
            <p className="hint" data-testid="blurred-clips">
              {settings.blurredClips?.length
                ? TOUR_TEXTS.clipsBlurred(settings.blurredClips)
                : TOUR_TEXTS.noClipsBlurred}
            </p>
          </TourSwitch>
          <TourSwitch
            id="live-viewing"
            legend={TOUR_TEXTS.liveViewing}
            label={TOUR_TEXTS.liveViewingOffer}
            hint={TOUR_TEXTS.liveViewingOfferHint}
            checked={settings.live.checked}
            onChange={settings.live.set}
          />
          <TourAccessField
            value={settings.access.value}
            had={settings.access.had}
            error={settings.access.error}
            onChange={settings.access.set}
          />
          {settings.leadGate.ready ? <LeadGateField {...settings.leadGate.field} /> : null}
          <TourListingField tourId={tour.id} />
        </>
      ) : null}
    </FormDialog>
  );
}

/** 'Update Thumbnail' (or 'Update Failed' after a failure): pick a .jpg/.jpeg/.png, crop at 16:9, send. */
function ThumbnailChange({ tour }: { tour: TourInfoTarget }) {
  const { failed, busy, image, preview, pick, use, cancel } = useThumbnailChange(tour);
  const input = useRef<HTMLInputElement>(null);
  const rect = useRef<CropRect | null>(null);

  const onPick = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    void pick(file);
  };

  return (
    <section className="thumb-change" aria-label="Thumbnail">
      {image ? (
        <>
          <ThumbnailCrop image={image.img} onChange={(r) => (rect.current = r)} />
          <div className="row">
            <SlButton size="small" onClick={cancel} disabled={busy}>
              {TOUR_TEXTS.cancel}
            </SlButton>
            <SlButton size="small" variant="primary" loading={busy} onClick={() => void use(rect.current)}>
              {TOUR_TEXTS.useCrop}
            </SlButton>
          </div>
        </>
      ) : (
        <div className="row">
          {preview ? <img className="thumb-preview" src={preview} alt="Current thumbnail" /> : null}
          <SlButton size="small" variant={failed ? 'danger' : 'default'} onClick={() => input.current?.click()}>
            {failed ? TOUR_TEXTS.updateFailed : TOUR_TEXTS.updateThumbnail}
          </SlButton>
        </div>
      )}
      <input
        ref={input}
        type="file"
        hidden
        accept={THUMBNAIL_EXTENSIONS.join(',')}
        aria-label={TOUR_TEXTS.updateThumbnail}
        data-testid="thumbnail-input"
        onChange={(e) => onPick(e.target.files?.[0])}
      />
    </section>
  );
}

/** One of the tour's own settings in Edit Info: a titled group with a checkbox and the hint that explains it. */
function TourSwitch(props: {
  id: string;
  legend: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <fieldset className="privacy">
      <legend>{props.legend}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          aria-describedby={`${props.id}-hint`}
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
        />
        {props.label}
      </label>
      <p id={`${props.id}-hint`} className="hint">
        {props.hint}
      </p>
      {props.children}
    </fieldset>
  );
}
