// The one cut of quoted input, shared by every package's error messages (@tickertape/errors).
export { CUT_CHARS, cut } from '@tickertape/errors';
