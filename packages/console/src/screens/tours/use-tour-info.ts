/**
 * Tour Info's data: the form (title, listing link, description), the tour's own settings read when editing (blur
 * faces, live viewing, who sees it, the lead gate; each sent only when changed), the save in its order (the lead gate
 * first, so a refusal leaves every field as it was; then the tour; then who sees it) with its notices, and the
 * thumbnail change.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from 'urql';
import { NOTICES, TourAccessSchema, VALIDATION, isAcceptedThumbnailName, tourInfoSchema } from '@roomwalk/shared';
import type { z } from 'zod';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { shouldShow } from '../../ui/form-field.js';
import { useSnackbar } from '../../ui/snackbar.js';
import {
  TourAccessSetMutation,
  TourPrivacyQuery,
  TourSaveMutation,
  TourUpdateThumbnailMutation,
} from './tour-operations.js';
import { accessChanged, accessProblem, type AccessChoice } from './tour-access-field.js';
import { loadImage, renderCrop, type CropRect } from './thumbnail-crop.js';
import { TOUR_TEXTS } from './texts.js';
import { useLeadGate } from './use-lead-gate.js';

type Values = z.input<typeof tourInfoSchema>;

export interface TourInfoTarget {
  id: string;
  title?: string | null;
  description?: string | null;
  listingLink?: string | null;
  thumbnailURL?: string | null;
  /** A cut-off recording's kept and declared seconds (the card's fragment). */
  videoInfo?: { keptSeconds?: number | null; declaredSeconds?: number | null } | null;
}

/** 'upload' after a new upload (Done; saving goes to /), 'edit' from a tour card (Save and Cancel, thumbnail). */
export function useTourInfo(tour: TourInfoTarget, mode: 'upload' | 'edit', onSaved: () => void) {
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

  const submit = handleSubmit(async (values) => {
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

  const settings = privacy.data?.tour;
  return {
    register,
    submit,
    submitting: formState.isSubmitting,
    failure,
    /** A field's error once the form says it may be shown. */
    errorOf: (n: keyof Values) => (shouldShow(n, formState) ? formState.errors[n]?.message : undefined),
    /** The tour's own settings (edit only; null until read), each with the owner's change over the stored value. */
    settings: settings
      ? {
          blurredClips: settings.blurredClips,
          blur: { checked: blur ?? settings.blurFaces, set: setBlur },
          live: { checked: live ?? settings.liveViewing, set: setLive },
          access: {
            value: access ?? { access: accessNow, password: '' },
            had: accessNow,
            error: accessError,
            set: setAccessChoice,
          },
          leadGate,
        }
      : null,
  };
}

/** 'Update Thumbnail': a .jpg/.jpeg/.png picked, cropped at 16:9 and sent; 'Update Failed' after a failure. */
export function useThumbnailChange(tour: TourInfoTarget) {
  const [, upload] = useMutation(TourUpdateThumbnailMutation);
  const notify = useSnackbar();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<{ img: HTMLImageElement; name: string } | null>(null);
  const [preview, setPreview] = useState<string | null | undefined>(tour.thumbnailURL);

  const fail = () => {
    setFailed(true);
    notify('error', NOTICES.unableToUpdateThumbnail);
  };

  const pick = async (file: File | undefined) => {
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

  const use = async (rect: CropRect | null) => {
    if (!image || !rect) return;
    setBusy(true);
    try {
      const file = await renderCrop(image.img, rect, image.name);
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

  return { failed, busy, image, preview, pick, use, cancel: () => setImage(null) };
}
