import { call, get, post, raw } from './client';
import type { Envelope, MenuNode, PlatformInfo, Session, UserPrefs } from './types';

export interface LogInRequest {
  account: string;
  password: string;
  type: 0;
}

export const platformInfo = () => get<PlatformInfo>('/authority-app/platformInfo', undefined, false);
/** Returns the envelope: code 0 carries the failure message the login page shows as a warning. */
export const logIn = (body: LogInRequest) => raw<Session>({ method: 'POST', url: '/authority-app/logIn', data: body });
export const logOut = () => get<null>('/authority-app/logOut', undefined, false);
export const findTreesForLogin = (userId: number | string) =>
  get<MenuNode[] | null>('/authority-app/resourceInfo/findTreesForLogin', { userId });
export const currentSession = () => call<Session>({ method: 'GET', url: '/authority-app/userInfo/current', silent: true }, false);

export interface PasswordUpdateRequest {
  oldPassword: string;
  newPassword: string;
}
export const passwordUpdate = (body: PasswordUpdateRequest): Promise<Envelope<null>> =>
  raw<null>({ method: 'POST', url: '/authority-app/userInfo/passwordUpdate', data: body });

/** The body of userSetting/edit: each field that is present is changed (prefs as a whole). */
export interface UserSetting {
  language?: string;
  timezone?: string;
  prefs?: UserPrefs;
}
/** The stored values after the change. */
export interface UserSettingResult {
  language: string;
  timezone: string;
  prefs: UserPrefs;
}
/** Saves the caller's settings; a refusal (an invalid value) is shown as the server's warning. */
export const editUserSetting = (body: UserSetting) => post<UserSettingResult>('/base-info-app/userSetting/edit', body);
