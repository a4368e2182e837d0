/** Shoelace setup: the light theme and the base path of its assets, which the build copies into dist/shoelace. */
import '@shoelace-style/shoelace/dist/themes/light.css';
import { setBasePath } from '@shoelace-style/shoelace/dist/utilities/base-path.js';

setBasePath('/shoelace');
