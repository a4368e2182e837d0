/** Roles carried in the session token and the plan-level helpers. */
export const ROLES = {
  admin: 'admin',
  superadmin: 'superadmin',
  pro: 'pro',
  offlicenselicense: 'offlicenselicense',
  entry: 'entry',
  basic: 'basic',
  free: 'free',
} as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
export const ALL_ROLES = Object.values(ROLES);

/** Route-table roles and the user's role within a company. */
export const USER_ROLES = { ADMIN: 'ADMIN', USER: 'USER' } as const;
export type UserRole = (typeof USER_ROLES)[keyof typeof USER_ROLES];

export const PLAN_LEVELS = {
  offlicenselicense: 'offlicenselicense',
  pro: 'pro',
  basic: 'basic',
  entry: 'entry',
  free: 'free',
  unauthenticated: 'unauthenticated',
} as const;
export type PlanLevel = (typeof PLAN_LEVELS)[keyof typeof PLAN_LEVELS];

type RoleList = readonly string[] | null | undefined;

export const hasRole = (roles: RoleList, role: Role): boolean => !!roles?.includes(role);
export const isSuperAdmin = (roles: RoleList): boolean => hasRole(roles, ROLES.superadmin);
/** Admin means admin or superadmin. */
export const isAdmin = (roles: RoleList): boolean => hasRole(roles, ROLES.admin) || isSuperAdmin(roles);
/** Pro plan means pro or offlicenselicense. */
export const isProPlan = (roles: RoleList): boolean =>
  hasRole(roles, ROLES.pro) || hasRole(roles, ROLES.offlicenselicense);
export const isBasicOrHigher = (roles: RoleList): boolean => hasRole(roles, ROLES.basic) || isProPlan(roles);
export const isEntryOrHigher = (roles: RoleList): boolean => hasRole(roles, ROLES.entry) || isBasicOrHigher(roles);
/** A paid plan is entry or higher. */
export const isPaidPlan = (roles: RoleList): boolean => isEntryOrHigher(roles);
export const isAdminWithProPlan = (roles: RoleList): boolean => isAdmin(roles) && isProPlan(roles);

/** Highest plan level, highest first: Offline License, Pro, Basic, Entry, otherwise Free. */
export function highestPlanLevel(roles: RoleList): PlanLevel {
  if (!roles) return PLAN_LEVELS.unauthenticated;
  if (hasRole(roles, ROLES.offlicenselicense)) return PLAN_LEVELS.offlicenselicense;
  if (hasRole(roles, ROLES.pro)) return PLAN_LEVELS.pro;
  if (hasRole(roles, ROLES.basic)) return PLAN_LEVELS.basic;
  if (hasRole(roles, ROLES.entry)) return PLAN_LEVELS.entry;
  return PLAN_LEVELS.free;
}
