/**
 * The plan catalogue: one place for allowances, prices and the feature table. Values are ours; see
 * docs/plans.md.
 */
import { ROLES, type Role } from './roles.js';

export const PLAN_IDS = { free: 'free', entry: 'entry', basic: 'basic', pro: 'pro', offline: 'offline' } as const;
export type PlanId = (typeof PLAN_IDS)[keyof typeof PLAN_IDS];

export const FREE_TRIAL_PLAN_NAME = 'Free Trial';

export const FEATURES = {
  tours: 'Tours',
  views: 'Views',
  aiRoomTagging: 'AI Room Tagging',
  reels: 'Reels',
  inviteTeam: 'Invite Team',
  tourAnalytics: 'Tour Analytics',
  customBranding: 'Custom Company Branding',
  apisWebhooks: 'APIs & Webhooks',
} as const;
export type FeatureName = (typeof FEATURES)[keyof typeof FEATURES];

export interface Plan {
  id: PlanId;
  /** The licence planName. */
  planName: string;
  /** Card label: Free, Entry, Basic, Pro. */
  tierName: string;
  role: Role;
  /** Active-tour allowance (licence quantity). */
  upTo: number;
  /** Price per month in minor currency units. */
  flatAmount: number;
  unitAmount: number;
  sold: boolean;
  description: string;
  features: readonly FeatureName[];
}

const EVERY_PLAN: readonly FeatureName[] = [
  FEATURES.tours,
  FEATURES.views,
  FEATURES.aiRoomTagging,
  FEATURES.reels,
  FEATURES.inviteTeam,
];

export const CURRENCY = { code: 'ZAR', symbol: 'R' } as const;

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    planName: FREE_TRIAL_PLAN_NAME,
    tierName: 'Free',
    role: ROLES.free,
    upTo: 1,
    flatAmount: 0,
    unitAmount: 0,
    sold: true,
    description: 'For checking out our tours and concluding we are the best',
    features: EVERY_PLAN,
  },
  {
    id: 'entry',
    planName: 'Entry',
    tierName: 'Entry',
    role: ROLES.entry,
    upTo: 5,
    flatAmount: 49_900,
    unitAmount: 0,
    sold: true,
    description: 'For individual realtors or small teams, basic features',
    features: EVERY_PLAN,
  },
  {
    id: 'basic',
    planName: 'Basic',
    tierName: 'Basic',
    role: ROLES.basic,
    upTo: 20,
    flatAmount: 149_900,
    unitAmount: 0,
    sold: true,
    description: 'Growing agencies, more listings and storage',
    features: [...EVERY_PLAN, FEATURES.tourAnalytics, FEATURES.customBranding],
  },
  {
    id: 'pro',
    planName: 'Pro',
    tierName: 'Pro',
    role: ROLES.pro,
    upTo: 60,
    flatAmount: 399_900,
    unitAmount: 0,
    sold: true,
    description: 'Mid market businesses, advanced APIs and support',
    features: [...EVERY_PLAN, FEATURES.tourAnalytics, FEATURES.customBranding, FEATURES.apisWebhooks],
  },
  {
    id: 'offline',
    planName: 'Offline License',
    tierName: 'Offline License',
    role: ROLES.offlicenselicense,
    upTo: 500,
    flatAmount: 0,
    unitAmount: 0,
    sold: false,
    description: 'Granted by Roomwalk for offline agreements',
    features: [...EVERY_PLAN, FEATURES.tourAnalytics, FEATURES.customBranding, FEATURES.apisWebhooks],
  },
];

export const ALL_FEATURES: readonly FeatureName[] = Object.values(FEATURES);

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}
export function planByName(planName: string): Plan | undefined {
  return PLANS.find((p) => p.planName === planName);
}
/** The upload limit is twice the active-tour allowance. */
export const uploadLimitFor = (upTo: number): number => upTo * 2;
export const isFreeTrial = (planName: string | null | undefined): boolean => planName === FREE_TRIAL_PLAN_NAME;
/**
 * Whether a plan on sale gives more than `planName`: false on the largest plan sold (Pro) and on the Offline License,
 * where "Upgrade" would lead nowhere.
 */
export function hasHigherPlan(planName: string | null | undefined): boolean {
  const current = planName ? planByName(planName) : undefined;
  if (!current) return true;
  return PLANS.some((p) => p.sold && p.upTo > current.upTo);
}
