/**
 * The Tour Info dialog: Title, Listing Link and Description with the shared limits and messages, and
 * (when editing) the thumbnail change with a 16:9 crop. After an upload it reads 'Done' and saving goes to /.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import {
  NOTICES,
  TourAccessSchema,
  VALIDATION,
  isAcceptedThumbnailName,
  tourInfoSchema,
  THUMBNAIL_EXTENSIONS,
} from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { FormDialog } from '../../ui/form-dialog.js';
import { FormField, TextAreaField, shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import {
  TourAccessSetMutation,
  TourPrivacyQuery,
  TourSaveMutation,
  TourUpdateThumbnailMutation,
} from './tour-operations.js';
import { TourAccessField, accessChanged, accessProblem, type AccessChoice } from './tour-access-field.js';
import { LeadGateField, useLeadGate } from './lead-gate-field.js';
import { TourListingField } from './tour-listing-field.js';
import { ThumbnailCrop, loadImage, renderCrop, type CropRect } from './thumbnail-crop.js';
import { TOUR_TEXTS } from './texts.js';
import { cutOffNote } from './tour-status.js';

type Values = z.input<typeof tourInfoSchema>;

interface TourInfoTarget {
  id: string;
  title?: string | null;
  description?: string | null;
  listingLink?: string | null;
  thumbnailURL?: string | null;
  /** A cut-off recording's kept and declared seconds (the card's fragment). */
  videoInfo?: { keptSeconds?: number | null; declaredSeconds?: number | null } | null;
}

export interface TourInfoDialogProps {
  open: boolean;
  tour: TourInfoTarget;
  /** 'upload' after a new upload (Done; saving goes to /), 'edit' from a tour card (Save and Cancel, thumbnail). */
  mode: 'upload' | 'edit';
  onClose: () => void;
  onSaved: () => void;
}

export function TourInfoDialog({ open, tour, mode, onClose, onSaved }: TourInfoDialogProps) {
  const [, save] = useMutation(TourSaveMutation);
  const notify = useSnackbar();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(tourInfoSchema),
    mode: 'onTouched',
    defaultValues: {
      title: tour.title ?? '',
      listingLink: tour.listingLink ?? '',
      description: tour.description ?? '',
    },
  });
  const show = (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined);
  // Privacy (edit only): null until the owner changes the switch; sent only when it differs from the tour's.
  const [privacy] = useQuery({ query: TourPrivacyQuery, variables: { id: tour.id }, pause: mode !== 'edit' });
  const [blur, setBlur] = useState<boolean | null>(null);
  const blurNow = privacy.data?.tour?.blurFaces;
  const blurChange = blur !== null && typeof blurNow === 'boolean' && blur !== blurNow ? { blurFaces: blur } : {};
  const [live, setLive] = useState<boolean | null>(null);
  const liveNow = privacy.data?.tour?.liveViewing;
  const liveChange = live !== null && typeof liveNow === 'boolean' && live !== liveNow ? { liveViewing: live } : {};
  // Who sees the tour: null until the owner changes it.
  const [, setAccess] = useMutation(TourAccessSetMutation);
  const accessNow = TourAccessSchema.safeParse(privacy.data?.tour?.access).data ?? 'PUBLIC';
  const [access, setAccessChoice] = useState<AccessChoice | null>(null);
  const [accessTried, setAccessTried] = useState(false);
  const accessError = access && accessTried ? accessProblem(access, accessNow) : null;
  // The lead gate, beside who sees the tour.
  const leadGate = useLeadGate(tour.id, mode === 'edit');

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (access && accessProblem(access, accessNow)) {
      setAccessTried(true);
      return;
    }
    if (!leadGate.check()) return;
    const parsed = tourInfoSchema.parse(values);
    // All or nothing as far as the server's refusals go: the lead form, the part the server may still refuse (a room
    // it no longer has, too early a room), is saved first, so a refusal leaves every field as it was; the refusal
    // names its field (a password was once set while the lead form was refused).
    const gateFailure = await leadGate.save();
    if (gateFailure) {
      setFailure(`${TOUR_TEXTS.leadGateRefused}${gateFailure}`);
      notify('error', NOTICES.failedToUpdateTour);
      return;
    }
    const r = await save({
      input: {
        id: tour.id,
        title: parsed.title,
        listingLink: parsed.listingLink || null,
        description: parsed.description || null,
        ...blurChange,
        ...liveChange,
      },
    });
    if (r.error) {
      const detail = describeFailure(r.error, serverMessage(r.error));
      setFailure(detail);
      if (mode === 'upload') notify('warning', `${NOTICES.couldNotSaveTour}${detail}`);
      else notify('error', NOTICES.failedToUpdateTour);
      return;
    }
    if (access && accessChanged(access, accessNow)) {
      const a = await setAccess({ input: { id: tour.id, access: access.access, password: access.password || null } });
      if (a.error) {
        setFailure(`${TOUR_TEXTS.accessRefused}${describeFailure(a.error, serverMessage(a.error))}`);
        notify('error', NOTICES.failedToUpdateTour);
        return;
      }
    }
    notify('success', NOTICES.successful);
    onSaved();
  });

  return (
    <FormDialog
      open={open}
      label={TOUR_TEXTS.tourInfo}
      onClose={onClose}
      onSubmit={onSubmit}
      submitting={formState.isSubmitting}
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
      {mode === 'edit' && privacy.data?.tour ? (
        <>
          <TourSwitch
            id="blur-faces"
            legend={TOUR_TEXTS.privacy}
            label={TOUR_TEXTS.blurFaces}
            hint={TOUR_TEXTS.blurFacesHint}
            checked={blur ?? privacy.data.tour.blurFaces}
            onChange={setBlur}
          >
            <p className="hint" data-testid="blurred-clips">
              {privacy.data.tour.blurredClips?.length
                ? TOUR_TEXTS.clipsBlurred(privacy.data.tour.blurredClips)
                : TOUR_TEXTS.noClipsBlurred}
            </p>
          </TourSwitch>
          <TourSwitch
            id="live-viewing"
            legend={TOUR_TEXTS.liveViewing}
            label={TOUR_TEXTS.liveViewingOffer}
            hint={TOUR_TEXTS.liveViewingOfferHint}
            checked={live ?? privacy.data.tour.liveViewing}
            onChange={setLive}
          />
          <TourAccessField
            value={access ?? { access: accessNow, password: '' }}
            had={accessNow}
            error={accessError}
            onChange={setAccessChoice}
          />
          {leadGate.ready ? <LeadGateField {...leadGate.field} /> : null}
          <TourListingField tourId={tour.id} />
        </>
      ) : null}
    </FormDialog>
  );
}

/** 'Update Thumbnail' (or 'Update Failed' after a failure): pick a .jpg/.jpeg/.png, crop at 16:9, send. */
function ThumbnailChange({ tour }: { tour: TourInfoTarget }) {
  const [, upload] = useMutation(TourUpdateThumbnailMutation);
  const notify = useSnackbar();
  const input = useRef<HTMLInputElement>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<{ img: HTMLImageElement; name: string } | null>(null);
  const [preview, setPreview] = useState<string | null | undefined>(tour.thumbnailURL);
  const rect = useRef<CropRect | null>(null);

  const fail = () => {
    setFailed(true);
    notify('error', NOTICES.unableToUpdateThumbnail);
  };

  const onPick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) {
      notify('warning', VALIDATION.noFileSelected);
      return;
    }
    if (!isAcceptedThumbnailName(file.name)) return fail();
    try {
      setImage({ img: await loadImage(file), name: file.name });
    } catch {
      fail();
    }
  };

  const onUse = async () => {
    if (!image || !rect.current) return;
    setBusy(true);
    try {
      const file = await renderCrop(image.img, rect.current, image.name);
      const r = await upload({ input: { id: tour.id, thumbnailURL: file } });
      if (r.error || !r.data) return fail();
      setFailed(false);
      setPreview(r.data.tourUpdateThumbnailURL.thumbnailURL);
      setImage(null);
      notify('success', NOTICES.successful);
    } catch {
      fail();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="thumb-change" aria-label="Thumbnail">
      {image ? (
        <>
          <ThumbnailCrop image={image.img} onChange={(r) => (rect.current = r)} />
          <div className="row">
            <SlButton size="small" onClick={() => setImage(null)} disabled={busy}>
              {TOUR_TEXTS.cancel}
            </SlButton>
            <SlButton size="small" variant="primary" loading={busy} onClick={() => void onUse()}>
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
        onChange={(e) => void onPick(e.target.files?.[0])}
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
