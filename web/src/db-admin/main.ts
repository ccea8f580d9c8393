import { mountPage } from '../shared/mount';
import Root from './Root.vue';

mountPage(Root);
